#!/usr/bin/env bash
# interop-chip.sh - the connectedhomeip SDK's own Python controller (PyPI home-assistant-chip-core
# 2025.7.0, venv CHIP_VENV, created here when missing) commissions and drives `matter-emu device` on the
# virtual LAN of scripts/lan.sh (2 hosts, run as root): Tests/MatterLANTests/InteropTests.swift, one test
# per case (a dimmable light by QR code with a second fabric, a restart and a reconnect; a plug by manual
# code; a colour-temperature light by passcode + discriminator; one device of a fleet of 20 while the
# other 19 stay commissionable; the control plane), each driver's [FAIL] line an issue of its own. This
# script only sets up the venv, brings the LAN up and down and runs the suite.
#
# Last line: `interop: N passed, N failed` (tests); exit status non-zero when anything failed.
# Env: CHIP_VENV (default /opt/matter-emu/chipvenv); MATTER_LAN_PREFIX and MATTER_LAN_STATE as for lan.sh
# (hosts PREFIX-h1..2, default me).
set -uo pipefail
export CHIP_VENV=${CHIP_VENV:-/opt/matter-emu/chipvenv}
if ! "$CHIP_VENV/bin/python" -c 'import chip.ChipDeviceCtrl' 2>/dev/null; then
    echo "interop: creating $CHIP_VENV (home-assistant-chip-core 2025.7.0)" >&2
    python3 -m venv "$CHIP_VENV" && "$CHIP_VENV/bin/pip" install -q \
        home-assistant-chip-core==2025.7.0 home-assistant-chip-clusters==2025.7.0 >&2 \
        || { echo "interop: could not install the SDK controller" >&2; echo "interop: 0 passed, 1 failed"; exit 1; }
fi
source "$(dirname "$0")/lib/suite.sh"
lan_suite interop MatterLANTests.InteropTests 2
