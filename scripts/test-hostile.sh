#!/usr/bin/env bash
# test-hostile.sh - a hostile peer on the virtual LAN of scripts/lan.sh (3 hosts, root, prefix hp):
# Tests/MatterLANTests/HostileTests.swift (PREFIX-h1 runs an on-off light, PREFIX-h2 commissions it and
# keeps toggling it while PREFIX-h3 floods it with matter-emu-hostile; checks the toggles, the device's
# life, memory and counters, and that it is still controllable afterwards; prints the figures for
# docs/RELIABILITY.md). This script only brings the LAN up and down and runs the suite.
#
# Last line: `hostile: N passed, N failed`.
# Env: MATTER_LAN_PREFIX (default hp), HOSTILE_COUNT (default 100000), HOSTILE_RATE (datagrams/s, default
# 2000), HOSTILE_SEED (default 1), RSS_GROWTH_LIMIT_KB (default 30720), read by the tests.
set -uo pipefail
export MATTER_LAN_PREFIX=${MATTER_LAN_PREFIX:-hp}
source "$(dirname "$0")/lib/suite.sh"
lan_suite hostile MatterLANTests.HostileTests 3
