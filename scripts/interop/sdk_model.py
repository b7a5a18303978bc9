"""Prints the connectedhomeip SDK's own cluster model (chip.clusters.Objects, the Python controller's cluster
objects) as JSON, for MatterClustersTests.SDKModelTests to compare with our generated model.

Run with the SDK's venv: `$CHIP_VENV/bin/python scripts/interop/sdk_model.py > sdk.json`. Each cluster:
{"id", "name", "attributes": [{"id", "name", "type"}], "commands": [{"id", "name", "direction", "fields"}],
"events": [{"id", "name", "fields"}]}; a field is {"tag", "name", "type"}; a type is a string:
bool, uint, int, float, double, string, octets, enum, bitmap, struct:<Name>, list<...>, with a
`nullable ` and/or `optional ` prefix.
"""
import enum

import aenum
import json
import sys
import typing

from chip.clusters import ClusterObjects, Objects  # noqa: F401  (Objects registers every cluster)
from chip.clusters.Types import Nullable
from chip import tlv


def describe(t):
    prefixes = []
    origin = typing.get_origin(t)
    if origin is typing.Union:
        args = list(typing.get_args(t))
        if type(None) in args:
            prefixes.append("optional")
            args.remove(type(None))
        if Nullable in args:
            prefixes.append("nullable")
            args.remove(Nullable)
        t = args[0] if len(args) == 1 else t
        origin = typing.get_origin(t)
    if origin in (list, typing.List):
        inner = describe(typing.get_args(t)[0])
        base = f"list<{inner}>"
    elif t is bool:
        base = "bool"
    elif t is tlv.uint:
        base = "uint"
    elif t is int:
        base = "int"
    elif t is tlv.float32:
        base = "float"
    elif t is float:
        base = "double"
    elif t is str:
        base = "string"
    elif t is bytes:
        base = "octets"
    elif isinstance(t, type) and issubclass(t, (enum.IntFlag, aenum.IntFlag)):
        base = "bitmap"
    elif isinstance(t, type) and issubclass(t, int) and hasattr(t, "__members__"):
        base = "enum"
    elif isinstance(t, type) and issubclass(t, ClusterObjects.ClusterObject):
        base = f"struct:{t.__name__}"
    else:
        base = f"?{t}"
    return " ".join(prefixes + [base])


def fields(cls):
    return [
        {"tag": f.Tag, "name": f.Label, "type": describe(f.Type)}
        for f in cls.descriptor.Fields
    ]


clusters = []
for cluster_id, cluster in sorted(ClusterObjects.ALL_CLUSTERS.items()):
    attributes = [
        {"id": attribute_id, "name": a.__name__, "type": describe(a.attribute_type.Type)}
        for attribute_id, a in sorted(ClusterObjects.ALL_ATTRIBUTES.get(cluster_id, {}).items())
        if attribute_id < 0xF000
    ]
    commands = []
    for direction, table in (("request", ClusterObjects.ALL_ACCEPTED_COMMANDS),
                             ("response", ClusterObjects.ALL_GENERATED_COMMANDS)):
        for command_id, c in sorted(table.get(cluster_id, {}).items()):
            commands.append({"id": command_id, "name": c.__name__, "direction": direction, "fields": fields(c)})
    events = [
        {"id": event_id, "name": e.__name__, "fields": fields(e)}
        for event_id, e in sorted(ClusterObjects.ALL_EVENTS.get(cluster_id, {}).items())
    ]
    clusters.append({"id": cluster_id, "name": cluster.__name__, "attributes": attributes,
                     "commands": commands, "events": events})
json.dump({"clusters": clusters}, sys.stdout, indent=1)
