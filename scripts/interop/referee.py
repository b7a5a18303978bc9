"""What every referee driver here shares: one [PASS]/[FAIL] line per check, the closing line
'N passed, N failed' that scripts/test.sh's suite runner and the wrappers count, and nodes written as
Home Assistant's Matter servers record them (node dumps for `matter-emu device --from-dump`)."""
import base64
import json

passed = 0
failed = 0


def check(name, ok, detail=""):
    """Counts and prints one check; returns `ok` so that a driver can stop early on failure."""
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(f"[{'PASS' if ok else 'FAIL'}] {name} {detail}".rstrip(), flush=True)
    return ok


def summary():
    """Prints the closing line; the exit status: 0 when something was checked and nothing failed."""
    print(f"{passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 and passed > 0 else 1


def node_dump(node_id, attributes):
    """A node as python-matter-server records it (what Home Assistant's fixtures and diagnostics hold):
    `attributes` keyed "endpoint/cluster/attribute", structs keyed by field tag, octet strings in base64,
    null as null. `attributes` maps those keys to the values the SDK's TLV reader gives."""
    def plain(value):
        if isinstance(value, (bytes, bytearray)):
            return base64.b64encode(bytes(value)).decode("ascii")
        if isinstance(value, dict):
            return {str(tag): plain(member) for tag, member in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(member) for member in value]
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        return None  # the TLV reader's Null
    return json.dumps({"node_id": node_id, "available": True,
                       "attributes": {key: plain(value) for key, value in sorted(attributes.items())}},
                      indent=1) + "\n"
