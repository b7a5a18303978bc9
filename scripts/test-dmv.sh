#!/usr/bin/env bash
# test-dmv.sh - the data-model conformance suite (docs/CONFORMANCE.md) on the virtual LAN of scripts/lan.sh
# (2 hosts, run as root): Tests/MatterLANTests/DataModelValidatorTests.swift, one test case per device type
# that `matter-emu device --help` lists (the connectedhomeip SDK's Python controller, venv CHIP_VENV, reads
# every attribute with one wildcard path; scripts/interop/dm_check.py, in the venv of
# esp-matter-dm-validator 1.0.5, DMV_VENV, created here when missing, judges it at the Matter version the
# device reports). This script only sets up the venv, brings the LAN up and down and runs the suite.
#
# Last line: `dmv: N passed, N failed` (tests); exit status non-zero when anything failed.
# Env: CHIP_VENV (default /opt/matter-emu/chipvenv), DMV_VENV (default /opt/matter-emu/dmvenv),
# DMV_INFO_VERSION (default 1.5), DMV_KEEP (a directory: keep the logs there), DMV_TYPES (a comma-separated
# list: only these device types, for a developer's run); MATTER_LAN_PREFIX and
# MATTER_LAN_STATE as for lan.sh (hosts PREFIX-h1..2, default me).
set -uo pipefail
export CHIP_VENV=${CHIP_VENV:-/opt/matter-emu/chipvenv} DMV_VENV=${DMV_VENV:-/opt/matter-emu/dmvenv}
if ! "$CHIP_VENV/bin/python" -c 'import chip.ChipDeviceCtrl' 2>/dev/null; then
    echo "dmv: $CHIP_VENV has no SDK controller (run scripts/setup.sh)" >&2; echo "dmv: 0 passed, 1 failed"; exit 1
fi
if ! "$DMV_VENV/bin/python" -c 'import dmv_tool' 2>/dev/null; then
    echo "dmv: creating $DMV_VENV (esp-matter-dm-validator 1.0.5)" >&2
    python3 -m venv "$DMV_VENV" && "$DMV_VENV/bin/pip" install -q esp-matter-dm-validator==1.0.5 >&2 \
        || { echo "dmv: could not install esp-matter-dm-validator" >&2; echo "dmv: 0 passed, 1 failed"; exit 1; }
fi
source "$(dirname "$0")/lib/suite.sh"
lan_suite dmv MatterLANTests.DataModelValidatorTests 2
