#!/usr/bin/env bash
# Builds and runs every test suite of matter-emu and exits non-zero on any failure:
#   1. unit and loopback suites (swift test: Swift Testing),
#   2. the network suite on a virtual LAN of network namespaces with real Avahi (needs root).
# The last line sums them up: `total: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "test: building (warnings are errors)" >&2
swift build --build-tests -Xswiftc -warnings-as-errors >"$log" 2>&1
build_status=$?
grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Linking|Write|Planning|Applying)' "$log" >&2
if [ "$build_status" != 0 ]; then
    echo "test: build failed"
    echo "total: 0 passed, 1 failed"
    exit 1
fi

echo "test: unit and loopback suites" >&2
swift test --skip-build 2>&1 | tee "$log"
unit_status=${PIPESTATUS[0]}
unit_total=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} in .*/\1/p' "$log" | tail -1)
unit_failed=$(grep -cE '^✘ Test [^ ]+.* failed after' "$log")
unit_total=${unit_total:-0}
if [ "$unit_status" != 0 ] && [ "$unit_failed" = 0 ]; then unit_failed=1; fi
unit_passed=$((unit_total - unit_failed))
[ "$unit_passed" -ge 0 ] || unit_passed=0

net_passed=0
net_failed=0
if [ "$(id -u)" = 0 ]; then
    echo "test: network suite (virtual LAN, real Avahi)" >&2
    bash scripts/test-network.sh 2>&1 | tee "$log"
    net_status=${PIPESTATUS[0]}
    line=$(grep -E '^network: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    net_passed=$(echo "$line" | sed -n 's/^network: \([0-9]*\) passed.*/\1/p')
    net_failed=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    net_passed=${net_passed:-0}
    net_failed=${net_failed:-0}
    if [ "$net_status" != 0 ] && [ "$net_failed" = 0 ]; then net_failed=1; fi
else
    echo "test: network suite skipped: it needs root (network namespaces, avahi-daemon)" >&2
fi

echo "total: $((unit_passed + net_passed)) passed, $((unit_failed + net_failed)) failed"
[ "$unit_status" = 0 ] && [ "$net_failed" = 0 ]
