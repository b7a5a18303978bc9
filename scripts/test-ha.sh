#!/usr/bin/env bash
# test-ha.sh - Home Assistant's Matter Server (PyPI python-matter-server 7.0.1, the server Home Assistant's
# Matter integration talks to, venv HA_VENV, created here when missing) against one `matter-emu device` of
# every type on the virtual LAN of scripts/lan.sh (2 hosts, prefix ha, run as root):
# Tests/MatterLANTests/HomeAssistantTests.swift (the server in host 2 through scripts/interop/ha_server.py,
# which turns its PAA, vendor and OTA downloads off and trusts only the test PAA of fixtures/pki; the checks
# in scripts/interop/ha_driver.py in host 1, each [FAIL] line an issue of its own). This script only sets up
# the venv, brings the LAN up and down and runs the suite.
#
# Last line: `ha: N passed, N failed` (tests); exit status non-zero when anything failed.
# Env: HA_VENV (default /opt/matter-emu/havenv); MATTER_LAN_PREFIX (default ha) and MATTER_LAN_STATE as for lan.sh.
set -uo pipefail
export HA_VENV=${HA_VENV:-/opt/matter-emu/havenv} MATTER_LAN_PREFIX=${MATTER_LAN_PREFIX:-ha}
if ! "$HA_VENV/bin/python" -c 'import matter_server.server, chip.ChipDeviceCtrl' 2>/dev/null; then
    echo "ha: creating $HA_VENV (python-matter-server 7.0.1)" >&2
    python3 -m venv "$HA_VENV" && "$HA_VENV/bin/pip" install -q "python-matter-server[server]==7.0.1" >&2 \
        || { echo "ha: could not install python-matter-server" >&2; echo "ha: 0 passed, 1 failed"; exit 1; }
fi
source "$(dirname "$0")/lib/suite.sh"
lan_suite ha MatterLANTests.HomeAssistantTests 2
