#!/usr/bin/env python3
"""Drives the connectedhomeip SDK's own Python controller (PyPI home-assistant-chip-core) against one
matter-emu device: commission it (QR code, manual code, or passcode + discriminator), then check
On, Off, Toggle, OffWithEffect, MoveToLevel, MoveToLevelWithOnOff with a read-back of each, a write
of BasicInformation.NodeLabel, and a subscription that reports changes. Prints one [PASS]/[FAIL]
line per check and ends with 'N passed, N failed'. Exit 0 when every check passed.

With --bench N (scripts/bench.sh), it instead commissions N devices one after another (discriminators
--discriminator, +1, ... with --passcode) and writes, to --bench-json, the wall-clock time of each
call and of each stage the SDK logs: discovery, PASE, then every "Performing next commissioning step"
to its "Successfully finished commissioning step" line.

With --wildcard-log PATH (scripts/test-dmv.sh), it commissions the device, reads every attribute with one
wildcard path and writes the read as a chip-tool wildcard log (chip_tool_log.py) for esp-matter-dm-validator.

Run inside a network namespace with a real interface (the SDK's mDNS does not use loopback) and a
writable /data (the SDK's storage path); scripts/interop-chip.sh does both.
"""
import argparse
import asyncio
import json
import logging
import os
import pathlib
import re
import sys
import time

from referee import check, node_dump, summary


class StageRecorder(logging.Handler):
    """Keeps the wall-clock time of the SDK's commissioning stage log lines."""
    PATTERNS = [
        (re.compile(r"Performing next commissioning step '([^']+)'"), "start"),
        (re.compile(r"Successfully finished commissioning step '([^']+)'"), "end"),
        (re.compile(r"^Discovered Device"), "discovered"),
        (re.compile(r"Commissioning stage next step: 'SecurePairing'"), "paired"),
    ]

    def __init__(self):
        super().__init__(level=logging.INFO)
        self.events = []

    def emit(self, record):
        message = record.getMessage()
        for pattern, kind in self.PATTERNS:
            match = pattern.search(message)
            if match:
                self.events.append((record.created, kind, match.group(1) if match.groups() else None))
                return

    def stages(self, start, end):
        """[(name, start, end)] for one commissioning that ran from start to end."""
        out = []
        discovered = next((t for t, kind, _ in self.events if kind == "discovered"), None)
        paired = next((t for t, kind, _ in self.events if kind == "paired"), None)
        if discovered is not None:
            out.append(("discovery (DNS-SD)", start, discovered))
            if paired is not None:
                out.append(("PASE (SecurePairing)", discovered, paired))
        for i, (t, kind, name) in enumerate(self.events):
            if kind != "start" or any(n == name for n, _, _ in out):
                continue
            finish = next((t2 for t2, k2, n2 in self.events[i + 1:] if k2 == "end" and n2 == name), None)
            if finish is not None:
                out.append((name, t, finish))
        return out


async def bench(ctrl, args):
    """Commissions args.bench devices in turn and writes the stage timings to args.bench_json."""
    from chip.ChipDeviceCtrl import DiscoveryFilterType
    recorder = StageRecorder()
    logging.getLogger().addHandler(recorder)
    runs = []
    for i in range(args.bench):
        discriminator = args.discriminator + i
        recorder.events = []
        start = time.time()
        try:
            await ctrl.CommissionOnNetwork(args.node_id + i, args.passcode, DiscoveryFilterType.LONG_DISCRIMINATOR,
                                           discriminator)
            end = time.time()
            stages = recorder.stages(start, end)
            runs.append({"discriminator": discriminator, "ok": True, "start": start, "end": end,
                         "stages": [{"name": n, "start": s, "end": e} for n, s, e in stages]})
            check(f"bench commission {discriminator}", True, f"({(end - start) * 1000:.0f} ms)")
        except Exception as error:
            runs.append({"discriminator": discriminator, "ok": False, "error": repr(error)})
            check(f"bench commission {discriminator}", False, repr(error))
    pathlib.Path(args.bench_json).write_text(json.dumps({"runs": runs}))
    # Leave now, with the SDK's stack still running: tearing it down (or letting the interpreter do
    # it after the event loop closed) can crash in its native code.
    status = summary()
    sys.stderr.flush()
    os._exit(status)


async def main(args):
    import chip.CertificateAuthority
    import chip.clusters as Clusters
    import chip.logging
    import chip.native
    from chip import discovery
    from chip.ChipDeviceCtrl import DiscoveryFilterType
    from chip.ChipStack import ChipStack

    pathlib.Path(args.work).mkdir(parents=True, exist_ok=True)
    # The SDK logs to stdout; keep stdout for the check lines and send its log to a file.
    # Benchmarks log less: formatting every debug line would slow the SDK down.
    logging.basicConfig(filename=str(pathlib.Path(args.work) / "chip.log"),
                        level=logging.INFO if args.bench else logging.DEBUG)
    chip.logging.RedirectToPythonLogging()
    chip.native.Init()
    storage = pathlib.Path(args.work) / "controller-storage.json"
    storage.parent.mkdir(parents=True, exist_ok=True)
    if storage.exists() and not args.reconnect:
        storage.unlink()
    stack = ChipStack(persistentStoragePath=str(storage), enableServerInteractions=False)
    authorities = chip.CertificateAuthority.CertificateAuthorityManager(stack, stack.GetStorageManager())
    authorities.LoadAuthoritiesFromStorage()
    if args.reconnect:
        # The controller of an earlier run: same CA, fabric and node ID, nothing commissioned again.
        admin = authorities.activeCaList[0].adminList[0]
    else:
        admin = authorities.NewCertificateAuthority().NewFabricAdmin(vendorId=0xFFF1, fabricId=args.fabric_id)
    ctrl = admin.NewController(nodeId=112233, paaTrustStorePath=str(args.paa))
    node = args.node_id
    ep = args.endpoint
    OnOff = Clusters.OnOff

    if args.bench:
        await bench(ctrl, args)
        return

    if args.reconnect:
        try:
            before = (await ctrl.ReadAttribute(node, [(ep, OnOff.Attributes.OnOff)]))[ep][OnOff][OnOff.Attributes.OnOff]
            await ctrl.SendCommand(node, ep, OnOff.Commands.Toggle())
            after = (await ctrl.ReadAttribute(node, [(ep, OnOff.Attributes.OnOff)]))[ep][OnOff][OnOff.Attributes.OnOff]
            check("reconnect after device restart (CASE, toggle, read)", after == (not before),
                  f"OnOff {before} -> {after}")
        except Exception as error:
            check("reconnect after device restart (CASE, toggle, read)", False, repr(error))
        return

    start = time.time()
    try:
        if args.qr:
            await ctrl.CommissionWithCode(args.qr, node, discovery.DiscoveryType.DISCOVERY_NETWORK_ONLY)
        elif args.manual:
            await ctrl.CommissionWithCode(args.manual.replace("-", ""), node, discovery.DiscoveryType.DISCOVERY_NETWORK_ONLY)
        else:
            await ctrl.CommissionOnNetwork(node, args.passcode, DiscoveryFilterType.LONG_DISCRIMINATOR, args.discriminator)
        check("commission", True, f"({(time.time() - start) * 1000:.0f} ms)")
    except Exception as error:
        check("commission", False, repr(error))
        return
    if args.commission_only:
        return
    if args.wildcard_log:
        await wildcard(ctrl, node, args)
        return

    Level = Clusters.LevelControl

    async def state():
        result = await ctrl.ReadAttribute(node, [(ep, OnOff.Attributes.OnOff), (ep, Level.Attributes.CurrentLevel)]
                                          if args.level else [(ep, OnOff.Attributes.OnOff)])
        on = result[ep][OnOff][OnOff.Attributes.OnOff]
        level = result[ep][Level][Level.Attributes.CurrentLevel] if args.level else None
        return on, level

    async def invoke(name, command, on=None, level=None):
        try:
            await ctrl.SendCommand(node, ep, command)
            got_on, got_level = await state()
            ok = (on is None or got_on == on) and (level is None or got_level == level)
            check(name, ok, f"OnOff={got_on} CurrentLevel={got_level}")
        except Exception as error:
            check(name, False, repr(error))

    await invoke("on", OnOff.Commands.On(), on=True)
    await invoke("off", OnOff.Commands.Off(), on=False)
    await invoke("toggle", OnOff.Commands.Toggle(), on=True)
    if args.level:
        # MoveToLevel acts only while on (no ExecuteIfOff); the WithOnOff form also switches on.
        await invoke("move-to-level", Level.Commands.MoveToLevel(level=77, transitionTime=0, optionsMask=0,
                                                                 optionsOverride=0), on=True, level=77)
        await invoke("off", OnOff.Commands.Off(), on=False)
        await invoke("move-to-level-with-on-off", Level.Commands.MoveToLevelWithOnOff(
            level=200, transitionTime=0, optionsMask=0, optionsOverride=0), on=True, level=200)
        await scenes(ctrl, node, ep, Clusters, invoke)
    await invoke("off-with-effect", OnOff.Commands.OffWithEffect(effectIdentifier=0, effectVariant=0), on=False)

    basic = Clusters.BasicInformation
    try:
        await ctrl.WriteAttribute(node, [(0, basic.Attributes.NodeLabel("interop label"))])
        result = await ctrl.ReadAttribute(node, [(0, basic.Attributes.NodeLabel)])
        label = result[0][basic][basic.Attributes.NodeLabel]
        check("write NodeLabel", label == "interop label", f"NodeLabel={label!r}")
    except Exception as error:
        check("write NodeLabel", False, repr(error))

    loop = asyncio.get_running_loop()
    reports = asyncio.Queue()
    try:
        sub = await ctrl.ReadAttribute(node, [(ep, OnOff.Attributes.OnOff)], reportInterval=(0, 10))

        def changed(path, transaction):
            loop.call_soon_threadsafe(reports.put_nowait, transaction.GetAttribute(path))

        sub.SetAttributeUpdateCallback(changed)
        for value, command in ((True, OnOff.Commands.On()), (False, OnOff.Commands.Off())):
            await ctrl.SendCommand(node, ep, command)
            deadline = time.time() + 5
            seen = False
            while time.time() < deadline and not seen:
                try:
                    seen = (await asyncio.wait_for(reports.get(), timeout=deadline - time.time())) == value
                except asyncio.TimeoutError:
                    break
            check(f"subscription reports OnOff={value}", seen)
        sub.Shutdown()
    except Exception as error:
        check("subscription", False, repr(error))

    if args.second_fabric:
        await second_fabric(ctrl, authorities, Clusters, args)


async def scenes(ctrl, node, ep, Clusters, invoke):
    """Scenes Management through the SDK's cluster objects: StoreScene (group 0, scene 1) at the current
    state (on, level 200), ViewScene shows its OnOff and LevelControl field sets, and after a level change
    RecallScene brings level 200 back."""
    Scenes = Clusters.ScenesManagement
    Level = Clusters.LevelControl
    try:
        stored = await ctrl.SendCommand(node, ep, Scenes.Commands.StoreScene(groupID=0, sceneID=1))
        viewed = await ctrl.SendCommand(node, ep, Scenes.Commands.ViewScene(groupID=0, sceneID=1))
        sets = {fs.clusterID: fs.attributeValueList for fs in (viewed.extensionFieldSetStructs or [])}
        level = [pair.valueUnsigned8 for pair in sets.get(Level.id, []) if pair.attributeID == 0]
        check("store-scene and view-scene", stored.status == 0 and viewed.status == 0 and level == [200],
              f"StoreSceneResponse status {stored.status}, ViewSceneResponse status {viewed.status}, "
              f"clusters {sorted(sets)}, CurrentLevel {level}")
    except Exception as error:
        check("store-scene and view-scene", False, repr(error))
        return
    await invoke("move-to-level (scene changed)", Level.Commands.MoveToLevel(
        level=40, transitionTime=0, optionsMask=0, optionsOverride=0), on=True, level=40)
    await invoke("recall-scene", Scenes.Commands.RecallScene(groupID=0, sceneID=1, transitionTime=0),
                 on=True, level=200)


async def wildcard(ctrl, node, args):
    """A read of every attribute of every cluster on every endpoint (one wildcard path), written as a
    chip-tool wildcard log (chip_tool_log.py) to --wildcard-log and as counts to --wildcard-log + .shape.json,
    with the reported BasicInformation.SpecificationVersion (0x0028/0x0015)."""
    import chip_tool_log
    try:
        response = await ctrl.Read(node, attributes=[()])
    except Exception as error:
        check("wildcard read", False, repr(error))
        return
    raw = response.tlvAttributes
    versions = {}
    for endpoint, clusters in response.attributes.items():
        for cluster_type, values in clusters.items():
            for key, value in values.items():
                if getattr(key, "__name__", "") == "DataVersion":
                    versions.setdefault(endpoint, {})[cluster_type.id] = value
    attributes = sum(len(attrs) for clusters in raw.values() for attrs in clusters.values())
    clusters = sum(len(c) for c in raw.values())
    spec = raw.get(0, {}).get(0x0028, {}).get(0x0015)
    ok = bool(raw) and isinstance(spec, int)
    check("wildcard read", ok, f"({len(raw)} endpoints, {clusters} clusters, {attributes} attributes, "
          f"SpecificationVersion 0x{spec or 0:08X})")
    if not ok:
        return
    pathlib.Path(args.wildcard_log).write_text("\n".join(chip_tool_log.render(raw, versions)) + "\n")
    if args.dump_json:
        attributes = {f"{endpoint}/{cluster}/{attribute}": value for endpoint, clusters in raw.items()
                      for cluster, values in clusters.items() for attribute, value in values.items()}
        pathlib.Path(args.dump_json).write_text(node_dump(node, attributes))
    pathlib.Path(args.wildcard_log + ".shape.json").write_text(json.dumps(
        {"specificationVersion": int(spec), "endpoints": chip_tool_log.read_shape(raw)}))


async def second_fabric(ctrl, authorities, Clusters, args):
    """The first admin opens an enhanced window; a controller of another fabric commissions the
    device with the new code; then both fabrics control it."""
    from chip import discovery
    OnOff = Clusters.OnOff
    node, ep = args.node_id, args.endpoint
    try:
        params = await ctrl.OpenCommissioningWindow(node, 180, 1000, 3001, 1)
        check("open enhanced commissioning window", bool(params.setupManualCode), f"code {params.setupManualCode}")
    except Exception as error:
        check("open enhanced commissioning window", False, repr(error))
        return
    second = authorities.NewCertificateAuthority().NewFabricAdmin(vendorId=0xFFF1, fabricId=2)
    ctrl2 = second.NewController(nodeId=112234, paaTrustStorePath=str(args.paa))
    try:
        await ctrl2.CommissionWithCode(params.setupManualCode, node + 1, discovery.DiscoveryType.DISCOVERY_NETWORK_ONLY)
        check("second fabric commissions the device", True)
    except Exception as error:
        check("second fabric commissions the device", False, repr(error))
        return
    try:
        await ctrl2.SendCommand(node + 1, ep, OnOff.Commands.On())
        first_sees = (await ctrl.ReadAttribute(node, [(ep, OnOff.Attributes.OnOff)]))[ep][OnOff][OnOff.Attributes.OnOff]
        await ctrl.SendCommand(node, ep, OnOff.Commands.Off())
        second_sees = (await ctrl2.ReadAttribute(node + 1, [(ep, OnOff.Attributes.OnOff)]))[ep][OnOff][OnOff.Attributes.OnOff]
        check("both fabrics control the device", first_sees is True and second_sees is False,
              f"after On by fabric 2 fabric 1 reads {first_sees}; after Off by fabric 1 fabric 2 reads {second_sees}")
        fabrics = (await ctrl.ReadAttribute(node, [(0, Clusters.OperationalCredentials.Attributes.Fabrics)],
                                            fabricFiltered=False))[0][Clusters.OperationalCredentials]
        count = len(fabrics[Clusters.OperationalCredentials.Attributes.Fabrics])
        check("the device lists two fabrics", count == 2, f"{count} fabric(s)")
    except Exception as error:
        check("both fabrics control the device", False, repr(error))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--qr")
    parser.add_argument("--manual")
    parser.add_argument("--passcode", type=int)
    parser.add_argument("--discriminator", type=int)
    parser.add_argument("--paa", required=True, help="directory of PAA certificates (*.der)")
    parser.add_argument("--node-id", type=lambda s: int(s, 0), default=0x1234)
    parser.add_argument("--endpoint", type=int, default=1)
    parser.add_argument("--fabric-id", type=int, default=1)
    parser.add_argument("--no-level", dest="level", action="store_false", help="the device has no LevelControl")
    parser.add_argument("--commission-only", action="store_true")
    parser.add_argument("--reconnect", action="store_true", help="reuse the stored controller; no commissioning")
    parser.add_argument("--second-fabric", action="store_true", help="then commission into a second fabric")
    parser.add_argument("--wildcard-log", metavar="PATH",
                        help="after commissioning, read every attribute and write it as a chip-tool wildcard log")
    parser.add_argument("--dump-json", metavar="PATH",
                        help="with --wildcard-log: also write the read as a Home Assistant node (a node dump)")
    parser.add_argument("--work", default="/data/chip-driver")
    parser.add_argument("--bench", type=int, default=0, metavar="N",
                        help="commission N devices (discriminators --discriminator...+N-1) and time the stages")
    parser.add_argument("--bench-json", default="chip-bench.json", help="where --bench writes its timings")
    args = parser.parse_args()
    if args.bench and not (args.passcode and args.discriminator is not None):
        parser.error("--bench needs --passcode and --discriminator")
    if not (args.reconnect or args.qr or args.manual or (args.passcode and args.discriminator is not None)):
        parser.error("give --qr, --manual, or --passcode with --discriminator")
    try:
        asyncio.run(main(args))
    except Exception as error:
        check("driver", False, repr(error))
    status = summary()
    sys.exit(status)
