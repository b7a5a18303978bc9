#!/usr/bin/env bash
# test-network.sh - MatterDiscovery end to end over real Avahi daemons on the virtual LAN of
# scripts/lan.sh (3 hosts, run as root): Tests/MatterLANTests/NetworkTests.swift (matter-dnssd-probe
# publishes in one host and browses/resolves from the others with each filter; updates, withdrawal, name
# collisions, a daemon restart, 200 services, avahi-browse cross-checks; the last tests take the LAN down
# and check that nothing is left). This script only brings the LAN up and down and runs the suite.
#
# Last line: `network: N passed, N failed`; exit status non-zero when anything failed.
# Env: MATTER_LAN_PREFIX and MATTER_LAN_STATE as for lan.sh (hosts PREFIX-h1..3, default me).
set -uo pipefail
source "$(dirname "$0")/lib/suite.sh"
lan_suite network MatterLANTests.NetworkTests 3
