"""Renders a wildcard read by the connectedhomeip SDK's Python controller as chip-tool's wildcard log:
the format that esp-matter-dm-validator's `check-conformance` and `logs-to-json` read
(dmv_tool/parsers/wildcard_logs.py). It renders the raw TLV of each attribute (ReadResponse.tlvAttributes:
exactly what the device sent, absent optional fields stay absent), with the attribute and struct field names
of the SDK's generated cluster objects, which come from the same cluster XML as chip-tool's. chip-tool's
DataModelLogger prints, for each attribute report:

    [TOO] Endpoint: 0 Cluster: 0x0000_001D Attribute 0x0000_0000 DataVersion: 2806829384
    [TOO]   DeviceTypeList: 1 entries
    [TOO]     [1]: {
    [TOO]       DeviceType: 22
    [TOO]       Revision: 3
    [TOO]      }

two spaces of indent a level, lists as `Label: N entries` and `[i]: value` items counted from 1, structs as
`Label: {` ... `}`, booleans TRUE/FALSE, null as null, enums and bitmaps as numbers, octet strings as hex:.
The parser takes each value line as `Name: value` and a struct field line as a key of its struct.

Two things of that parser that dm_check.py's comparison would catch (it fails when the parsed log lacks
any attribute, list entry or struct field of the raw read), and that chip-tool's own logs share:
  - any [TOO] line whose text contains "Endpoint" starts a new attribute block, so a value such as a
    NodeLabel "Endpoint 1" or a struct field named Endpoint (an ACL entry's Targets, a Binding entry)
    truncates that attribute; our devices hold none in these tests (the ACL's Targets is null);
  - an empty string (`Label: `) is dropped, and a string such as "3 (Three)" becomes {id, name}.

Also gives `shape()`: the same read as counts (endpoints, clusters, attributes, list lengths, struct fields)
in JSON, for comparing with what the validator parsed from the log.
"""
import typing

PREFIX = "[1700000000.000] [1:1] [TOO] "


def _struct_type(t):
    """The ClusterObject (struct) class inside a field type (Optional/Nullable/List wrappers), or None."""
    from chip.clusters.ClusterObjects import ClusterObject
    if isinstance(t, type) and issubclass(t, ClusterObject):
        return t
    for arg in typing.get_args(t):
        found = _struct_type(arg)
        if found is not None:
            return found
    return None


def _is_list(value):
    from chip.tlv import TLVList
    return isinstance(value, (list, TLVList))


def _list_items(value):
    """The elements of a decoded TLV array (a list) or TLV list (TLVList of tagged items)."""
    if isinstance(value, list):
        return value
    return [getattr(item, "value", item) for item in value]


def _is_struct(value):
    return isinstance(value, dict)


def _scalar(value):
    from chip.clusters.Types import Nullable
    if value is None or isinstance(value, Nullable):
        return "null"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (bytes, bytearray)):
        return "hex:" + bytes(value).hex()
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(int(value))
    return str(value)


def _field_label(struct_type, tag):
    if struct_type is not None:
        field = struct_type.descriptor.GetFieldByTag(tag)
        if field is not None and field.Label:
            return field.Label[0].upper() + field.Label[1:], field.Type
    return f"Field{tag}", None


def _items(value):
    """(tag, value) pairs of a decoded TLV struct."""
    return list(value.items())


def _render(lines, label, value, field_type, indent):
    pad = "  " * indent
    if _is_list(value):
        items = _list_items(value)
        lines.append(f"{pad}{label}: {len(items)} entries")
        element = _struct_type(field_type)
        for i, item in enumerate(items, 1):
            _render(lines, f"[{i}]", item, element if _is_struct(item) else None, indent + 1)
    elif _is_struct(value):
        struct_type = _struct_type(field_type)
        lines.append(f"{pad}{label}: {{")
        for tag, field_value in _items(value):
            name, ftype = _field_label(struct_type, tag)
            _render(lines, name, field_value, ftype, indent + 1)
        lines.append(f"{pad} }}")
    else:
        lines.append(f"{pad}{label}: {_scalar(value)}")


def attribute_name(cluster_id, attribute_id):
    from chip.clusters.Attribute import _AttributeIndex
    entry = _AttributeIndex.get((cluster_id, attribute_id))
    if entry is None:
        return f"Attribute{attribute_id:04X}", None
    attribute_type = entry[0]
    return attribute_type.__name__, attribute_type.attribute_type.Type


def render(tlv_attributes, versions):
    """chip-tool wildcard log lines for tlv_attributes {endpoint: {cluster: {attribute: value}}};
    versions {endpoint: {cluster: DataVersion}}."""
    lines = []
    for endpoint in sorted(tlv_attributes):
        for cluster in sorted(tlv_attributes[endpoint]):
            version = versions.get(endpoint, {}).get(cluster) or 0
            for attribute in sorted(tlv_attributes[endpoint][cluster]):
                value = tlv_attributes[endpoint][cluster][attribute]
                body = []
                name, field_type = attribute_name(cluster, attribute)
                _render(body, name, value, field_type, 1)
                lines.append(f"Endpoint: {endpoint} Cluster: 0x{cluster >> 16:04X}_{cluster & 0xFFFF:04X} "
                             f"Attribute 0x{attribute >> 16:04X}_{attribute & 0xFFFF:04X} DataVersion: {version}")
                lines.extend(body)
    return [PREFIX + line for line in lines]


def shape(value):
    """Counts of a value: lists as {"list": [shapes]}, structs as {"struct": {tag: shape}}, scalars as
    "scalar" or "empty" (an empty string: chip-tool prints `Label: ` and the validator's parser drops it)."""
    if _is_list(value):
        items = _list_items(value)
        return {"list": [shape(item) for item in items]}
    if _is_struct(value):
        return {"struct": {str(tag): shape(v) for tag, v in _items(value)}}
    if isinstance(value, str) and value == "":
        return "empty"
    return "scalar"


def read_shape(tlv_attributes):
    return {str(ep): {str(cl): {str(at): shape(v) for at, v in attrs.items()} for cl, attrs in clusters.items()}
            for ep, clusters in tlv_attributes.items()}
