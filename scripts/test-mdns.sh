#!/usr/bin/env bash
# test-mdns.sh - the embedded mDNS responder and querier (issue 29) on the virtual LAN of scripts/lan.sh
# (3 hosts, run as root): Tests/MatterLANTests/EmbeddedMDNSLANTests.swift (a device with --mdns embedded in a
# host whose avahi-daemon is stopped, found by avahi-browse and matter-emu discover through Avahi, by the
# embedded querier beside another host's avahi-daemon, commissioned with --mdns embedded; goodbyes on exit).
# This script only brings the LAN up and down and runs the suite.
#
# Last line: `mdns: N passed, N failed`; exit status non-zero when anything failed.
# Env: MATTER_LAN_PREFIX (default md here) and MATTER_LAN_STATE as for lan.sh.
set -uo pipefail
export MATTER_LAN_PREFIX=${MATTER_LAN_PREFIX:-md}
source "$(dirname "$0")/lib/suite.sh"
lan_suite mdns MatterLANTests.EmbeddedMDNSLANTests 3
