#!/usr/bin/env bash
# test-ha.sh: Home Assistant's Matter Server (PyPI python-matter-server 7.0.1, the server Home
# Assistant's Matter integration talks to, in a venv this script creates) commissions one
# `matter-emu device` of every type on the virtual LAN of scripts/lan.sh (root), through its own
# WebSocket client; the checks are in scripts/interop/ha_driver.py (commissioning and interview, node
# data, commands seen through the server's subscription, the commissioning window's WindowStatus,
# restarts, two identities for two devices of one type, remove_node). The server runs through
# scripts/interop/ha_server.py, which turns its PAA, vendor and OTA downloads off; it trusts only the
# test PAA of fixtures/pki. Last line: `ha: N passed, N failed`; exit 1 on any failure.
# Env: HA_VENV (default /opt/matter-emu/havenv).
set -uo pipefail
cd "$(dirname "$0")/.."
export MATTER_LAN_PREFIX=ha
LAN=./scripts/lan.sh
HA_VENV=${HA_VENV:-/opt/matter-emu/havenv}
HA_VERSION=7.0.1
WORK=$(mktemp -d /tmp/matter-emu-ha.XXXXXX)
passed=0
failed=0
server_pid=""

summary() { echo "ha: $passed passed, $failed failed"; }
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    $LAN down >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap 'cleanup; summary; [ "$failed" = 0 ] && [ "$passed" -gt 0 ]; exit $?' EXIT

[ "$(id -u)" = 0 ] || { echo "ha: needs root (network namespaces)" >&2; failed=1; exit 1; }
if ! "$HA_VENV/bin/python" -c 'import matter_server.server, chip.ChipDeviceCtrl' 2>/dev/null; then
    echo "ha: creating $HA_VENV (python-matter-server $HA_VERSION)" >&2
    python3 -m venv "$HA_VENV" && "$HA_VENV/bin/pip" install -q "python-matter-server[server]==$HA_VERSION" >&2 \
        || { echo "ha: could not install python-matter-server" >&2; failed=1; exit 1; }
fi
EMU="$(swift build --show-bin-path)/matter-emu"
[ -x "$EMU" ] || { echo "ha: build matter-emu first (scripts/setup.sh)" >&2; failed=1; exit 1; }

# The server's PAA directory: our test PAA, and a `.version` file (without one the server's PAA
# download would first delete every certificate in the directory; ha_server.py turns that download off).
mkdir -p "$WORK/paa" "$WORK/server"
cp fixtures/pki/paa-trust-store/*.der "$WORK/paa/"
echo 1 >"$WORK/paa/.version"

$LAN up 2 >&2 || { echo "ha: lan.sh up failed" >&2; failed=1; exit 1; }

# The server on ha-h2 (10.213.0.2; its WebSocket on the LAN), the driver and the devices it starts on ha-h1.
$LAN exec ha-h2 "$HA_VENV/bin/python" scripts/interop/ha_server.py --storage-path "$WORK/server" \
    --paa-root-cert-dir "$WORK/paa" --listen-address 10.213.0.2 --port 5580 --primary-interface lan0 \
    --log-level info --log-file "$WORK/server.log" >"$WORK/server.out" 2>&1 &
server_pid=$!

out=$($LAN exec ha-h1 timeout 900 "$HA_VENV/bin/python" scripts/interop/ha_driver.py --url ws://10.213.0.2:5580/ws \
    --emu "$EMU" --work "$WORK/devices" 2>"$WORK/driver.err")
echo "$out" | sed 's/^/  [ha] /' >&2
passed=$(echo "$out" | grep -c '^\[PASS\]')
failed=$(echo "$out" | grep -c '^\[FAIL\]')
if [ "$passed" = 0 ] && [ "$failed" = 0 ]; then
    failed=1
    echo "ha: the driver reported nothing; its stderr and the server's log:" >&2
    tail -20 "$WORK/driver.err" >&2
    tail -30 "$WORK/server.out" >&2
elif [ "$failed" != 0 ]; then
    echo "ha: the server's log (last lines):" >&2
    tail -30 "$WORK/server.log" >&2
fi
