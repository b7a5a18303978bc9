#!/usr/bin/env bash
# test-commissioner.sh - matter-emu's own commissioner against matter-emu devices on the virtual LAN of
# scripts/lan.sh (2 hosts, root), with real Avahi: Tests/MatterLANTests/CommissionerTests.swift (three
# device types on PREFIX-h1 commissioned from PREFIX-h2 by QR code, manual code, passcode + discriminator
# and direct address; control commands checked in the devices' --json events; failures by exit code with
# nothing stored; six devices sharing one short discriminator). This script only brings the LAN up and
# down and runs the suite.
#
# Last line: `commissioner: N passed, N failed`. Env: MATTER_LAN_PREFIX (default me), MATTER_LAN_STATE.
set -uo pipefail
source "$(dirname "$0")/lib/suite.sh"
lan_suite commissioner MatterLANTests.CommissionerTests 2
