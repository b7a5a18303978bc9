#!/usr/bin/env python3
"""Judges one device's data model with esp-matter-dm-validator (PyPI 1.0.5; run with its venv's python).

Input: a chip-tool-style wildcard log that chip_driver.py --wildcard-log wrote (chip_tool_log.py), and
beside it LOG.shape.json, the counts of the raw read and the device's SpecificationVersion. Checks:
  1. the validator's own parser (dmv_tool.parsers.wildcard_logs, what `logs-to-json` and
     `check-conformance` use) finds every endpoint, cluster and attribute of the raw read, in the category
     it files it under, with every list entry and struct field: nothing lost in the rendering or parsing;
  2. the validator's verdict at the version the device reports (SpecificationVersion 0xMMmmpp00 ->
     "MM.mm" or "MM.mm.pp", which must be one the validator knows): the same call and the same rule as
     `check-conformance` (compliant when every endpoint is), with every finding printed on failure;
  3. at --info-version (default 1.5), when that is not the reported version: the findings as [INFO]
     lines, not counted.
Prints one [PASS]/[FAIL] line per check and ends with 'N passed, N failed'. Writes the validator's
reports beside the log (LOG.report-VERSION.txt).
"""
import argparse
import contextlib
import io
import json
import pathlib
import sys

from referee import check, summary


# Attributes the validator's parser cannot read whole, whatever their value: it takes every log line that contains
# "Endpoint" for the header of a new attribute (parse_datamodel_logs), so the first line of PowerSource's
# EndpointList ("EndpointList: 1 entries") starts a block of its own and the attribute is filed with no value.
# Each is reported beside the check, not counted against it; the verdict does not depend on their values.
UNREADABLE = {(0x002F, 0x001F): "PowerSource.EndpointList"}

GLOBAL = {0xFFFC: "features", 0xFFFD: "revisions", 0xFFF8: "commands", 0xFFF9: "commands",
          0xFFFA: "events", 0xFFFB: "attributes"}


def compare(raw, parsed, where, problems, counts):
    """raw: a shape from chip_tool_log.shape(); parsed: the value the validator's parser made of it."""
    if isinstance(raw, dict) and "list" in raw:
        if not isinstance(parsed, list) or len(parsed) != len(raw["list"]):
            problems.append(f"{where}: a list of {len(raw['list'])} became {parsed!r:.80}")
            return
        counts["list entries"] += len(raw["list"])
        for i, (r, p) in enumerate(zip(raw["list"], parsed)):
            compare(r, p, f"{where}[{i + 1}]", problems, counts)
    elif isinstance(raw, dict) and "struct" in raw:
        fields = [s for s in raw["struct"].values() if s != "empty"]
        if not isinstance(parsed, dict) or len(parsed) != len(fields):
            problems.append(f"{where}: a struct of {len(fields)} fields became {parsed!r:.80}")
            return
        counts["struct fields"] += len(fields)
        for (name, p), r in zip(parsed.items(), fields):
            compare(r, p, f"{where}.{name}", problems, counts)
    else:
        # A scalar. The parser itself turns ServerList/ClientList entries into {"id": "0x001D"} and
        # "N (Name)" strings into {"id", "name"}: those are still one scalar each.
        if isinstance(parsed, list) or (isinstance(parsed, dict) and not set(parsed) <= {"id", "name"}):
            problems.append(f"{where}: a scalar became {parsed!r:.80}")


def check_parse(parsed, shape, name):
    endpoints = {e["id"]: e.get("clusters", {}) for e in parsed.get("endpoints", [])}
    problems = []
    unreadable = set()
    counts = {"endpoints": 0, "clusters": 0, "attributes": 0, "list entries": 0, "struct fields": 0}
    for ep, clusters in shape.items():
        ep = int(ep)
        counts["endpoints"] += 1
        if ep not in endpoints:
            problems.append(f"endpoint {ep} missing")
            continue
        if len(endpoints[ep]) != len(clusters):
            problems.append(f"endpoint {ep}: {len(clusters)} clusters read, {len(endpoints[ep])} parsed")
        for cl, attributes in clusters.items():
            cl = int(cl)
            counts["clusters"] += 1
            cluster = endpoints[ep].get(f"0x{cl:04X}")
            if cluster is None:
                problems.append(f"endpoint {ep} cluster 0x{cl:04X} missing")
                continue
            for at, raw in attributes.items():
                at = int(at)
                counts["attributes"] += 1
                category = GLOBAL.get(at, "attributes")
                entries = cluster.get(category, {})
                key = {0xFFFC: "FeatureMap", 0xFFFD: "ClusterRevision", 0xFFF8: "GeneratedCommandList",
                       0xFFF9: "AcceptedCommandList", 0xFFFA: "EventList", 0xFFFB: "AttributeList"}.get(at, f"0x{at:04X}")
                where = f"ep {ep} cluster 0x{cl:04X} attribute 0x{at:04X}"
                if key not in entries:
                    problems.append(f"{where} missing")
                    continue
                values = entries[key]
                if raw == "empty":
                    if values:
                        problems.append(f"{where}: an empty string became {values!r:.80}")
                    continue
                if (cl, at) in UNREADABLE and values == {}:
                    unreadable.add(UNREADABLE[(cl, at)])
                    continue
                if len(values) != 1:
                    problems.append(f"{where}: one value became {values!r:.80}")
                    continue
                compare(raw, next(iter(values.values())), where, problems, counts)
    detail = ", ".join(f"{n} {k}" for k, n in counts.items())
    if unreadable:
        detail += "; the parser cannot read " + ", ".join(sorted(unreadable)) + " (a line naming an Endpoint)"
    check(f"{name}: the validator's parser reads the whole wildcard read", not problems,
          f"({detail})" + "".join(f"\n    {p}" for p in problems[:20]))


def findings(results):
    """One line per finding of validate_device_conformance's results (all but the event notes, which
    the validator itself calls informational: wildcard reads carry no events)."""
    lines = []
    for endpoint in results.get("endpoints", []):
        ep = endpoint.get("endpoint")
        for kind in ("missing_elements", "revision_issues", "duplicate_elements", "extra_elements", "extra_clusters"):
            for item in endpoint.get(kind, []) or []:
                if isinstance(item, dict):
                    cluster = f" cluster {item['cluster_id']} {item['cluster_name']}:" if item.get("cluster_id") else ""
                    lines.append(f"endpoint {ep} {kind.replace('_', ' ')}:{cluster} {item.get('message', item)}")
                else:
                    lines.append(f"endpoint {ep} {kind.replace('_', ' ')}: {item}")
        for device_type in endpoint.get("device_types", []):
            if not device_type.get("is_compliant", True):
                lines.append(f"endpoint {ep} device type {device_type.get('device_type_id'):#06x} "
                             f"{device_type.get('device_type_name')}: not compliant")
    return lines


def judge(parsed, version, log):
    from dmv_tool.validators.conformance_checker import validate_device_conformance
    from dmv_tool.validators.reporting import generate_conformance_report
    # The validator prints some of its findings on stdout as well: keep stdout for our check lines.
    with contextlib.redirect_stdout(io.StringIO()):
        results = validate_device_conformance(parsed, version)
        report = generate_conformance_report(results, version)
    pathlib.Path(f"{log}.report-{version}.txt").write_text(report)
    summary = results.get("summary", {})
    # check-conformance's rule (validate_data_model_conformance): compliant when every endpoint is.
    compliant = summary.get("compliant_endpoints", 0) == summary.get("total_endpoints", -1)
    return compliant, summary, findings(results)


def version_string(spec):
    """SpecificationVersion (Matter Core, Basic Information cluster: 0xMMmmpprr, major, minor, dot-dot, reserved 0) as the
    validator's version names: 1.4, 1.4.1..."""
    major, minor, patch = (spec >> 24) & 0xFF, (spec >> 16) & 0xFF, (spec >> 8) & 0xFF
    return f"{major}.{minor}" + (f".{patch}" if patch else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("log")
    parser.add_argument("--name", default="device")
    parser.add_argument("--info-version", default="1.5")
    args = parser.parse_args()
    from dmv_tool.configs.constants import SUPPORTED_SPEC_VERSIONS
    from dmv_tool.parsers.wildcard_logs import parse_datamodel_logs
    from dmv_tool.validators.conformance_checker import detect_spec_version_from_parsed_data

    shape = json.loads(pathlib.Path(args.log + ".shape.json").read_text())
    with contextlib.redirect_stdout(io.StringIO()):
        parsed = parse_datamodel_logs(pathlib.Path(args.log).read_text())
    check_parse(parsed, shape["endpoints"], args.name)

    spec = shape["specificationVersion"]
    version = version_string(spec)
    detected = detect_spec_version_from_parsed_data(parsed)
    if not check(f"{args.name}: reports a version the validator knows", version in SUPPORTED_SPEC_VERSIONS,
                 f"(SpecificationVersion 0x{spec:08X} = {version}; the validator's own detection: {detected}; "
                 f"it knows {', '.join(SUPPORTED_SPEC_VERSIONS)})"):
        return
    compliant, summary, lines = judge(parsed, version, args.log)
    check(f"{args.name}: data model conforms to Matter {version}", compliant,
          f"({summary.get('compliant_endpoints')}/{summary.get('total_endpoints')} endpoints compliant)"
          + "".join(f"\n    {line}" for line in lines))
    if args.info_version and args.info_version != version:
        compliant, summary, lines = judge(parsed, args.info_version, args.log)
        print(f"[INFO] {args.name} at Matter {args.info_version} (information, not counted): "
              f"{'compliant' if compliant else 'NOT compliant'}, {summary.get('compliant_endpoints')}/"
              f"{summary.get('total_endpoints')} endpoints" + "".join(f"\n    {line}" for line in lines), flush=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as error:
        check("dm_check", False, repr(error))
    status = summary()
    sys.exit(status)
