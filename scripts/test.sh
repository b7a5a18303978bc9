#!/usr/bin/env bash
# Builds and runs every test suite of matter-emu and exits non-zero on any failure:
#   0. swift format lint over Package.swift, Sources, Tests, Fuzz and Examples (.swift-format),
#   1. unit and loopback suites (swift test: Swift Testing), among them the crash and loss suites
#      (Tests/MatterEmuSuitesTests: kill -9 at every commissioning checkpoint, and commissioning and
#      commands through 10 % and 30 % packet loss, driving the built matter-emu on loopback; no root),
#   2. the network suite on a virtual LAN of network namespaces with real Avahi (needs root), and the mdns
#      suite (scripts/test-mdns.sh: the embedded responder on a host without avahi-daemon),
#   3. the commissioner suite: matter-emu's own CLI commissions and drives our devices on that LAN,
#   4. the interoperability suite: the connectedhomeip SDK's Python controller against our devices
#      on that LAN (needs root; creates its venv on first use), and the ha suite: Home Assistant's
#      Matter Server (python-matter-server) commissions and drives every device type there (root),
#   4b. the data-model suite: every device type's wildcard read judged by esp-matter-dm-validator at the
#      Matter version the device reports (root, LAN; scripts/test-dmv.sh),
#   4c. the pods suite: deploy/kubernetes rendered as Pods and run by podman kube play on that LAN from the
#      image of deploy/image/build.sh; one device of every shard commissioned by its computed code (root),
#   5. the hostile-peer suite: 100,000 hostile datagrams at a device while it is toggled (root, LAN),
#   6. the examples suite: Examples/HomeQuickStart, an outside package depending on matter-emu by path,
#      built with warnings as errors and its Swift Testing suite run: the Home API guides' samples
#      checked on in-process devices (no root; scripts/test-examples.sh),
#   6b. the browser suite: a fleet's --http dashboard in headless Chromium driven by Selenium (toggle, live
#      changes from the API and ctl, a window's codes, search; screenshots kept; scripts/test-browser.sh),
#   6c. the k8s suite: deploy/kubernetes's overlays rendered and validated offline against the Kubernetes
#      API schemas (kubernetes-validate --strict), and their Swift checks (no root; scripts/test-k8s.sh),
#   7. the fuzz suite: libFuzzer on the decoders for about a minute (scripts/fuzz.sh; FUZZ_SECONDS per target).
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

echo "test: swift format lint (.swift-format; every finding is an error)" >&2
lint_passed=1
lint_failed=0
if ! swift format lint --strict --recursive Package.swift Sources Tests Fuzz Examples >"$log" 2>&1; then
    cat "$log" >&2
    echo "test: swift format lint found the above (run: swift format format -i --recursive <paths>)" >&2
    lint_passed=0
    lint_failed=1
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

# suite NAME SCRIPT: runs a suite script whose last line is `NAME: N passed, N failed`.
extra_passed=0
extra_failed=0
suite() {
    local name=$1 script=$2 status line p f
    echo "test: $name suite" >&2
    bash "$script" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed" "$log" | tail -1)
    p=$(echo "$line" | sed -n "s/^$name: \([0-9]*\) passed.*/\1/p")
    f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    p=${p:-0}
    f=${f:-0}
    if [ "$status" != 0 ] && [ "$f" = 0 ]; then f=1; fi
    extra_passed=$((extra_passed + p))
    extra_failed=$((extra_failed + f))
}

suite examples scripts/test-examples.sh  # Examples/HomeQuickStart built by path, its tests run (Home API samples)
SUITE_SKIP_BUILD=1 suite browser scripts/test-browser.sh  # the --http dashboard in headless Chromium (Selenium)
SUITE_SKIP_BUILD=1 suite k8s scripts/test-k8s.sh  # deploy/kubernetes rendered, validated offline (kubernetes-validate)

if [ "$(id -u)" = 0 ]; then
    export SUITE_SKIP_BUILD=1  # built above; the LAN wrappers (scripts/lib/suite.sh) need not check again
    suite network scripts/test-network.sh  # DNS-SD over real Avahi on the virtual LAN
    suite mdns scripts/test-mdns.sh  # the embedded mDNS responder and querier, no avahi-daemon on the device's host
    suite commissioner scripts/test-commissioner.sh  # our commissioner CLI against our devices
    suite hostile scripts/test-hostile.sh  # a hostile peer floods a device while a controller toggles it
    suite interop scripts/interop-chip.sh  # the connectedhomeip controller against our devices
    suite ha scripts/test-ha.sh  # Home Assistant's Matter Server against every device type
    suite dmv scripts/test-dmv.sh  # every device type's data model through esp-matter-dm-validator
    suite pods scripts/test-pods.sh  # fleet shards as pods (podman kube play) on the LAN, commissioned by computed codes
else
    echo "test: network and interop suites skipped: they need root (network namespaces, avahi-daemon)" >&2
fi
FUZZ_SECONDS=${FUZZ_SECONDS:-8} suite fuzz scripts/fuzz.sh  # libFuzzer on the decoders, ~8 s per target (no root)

echo "total: $((lint_passed + unit_passed + extra_passed)) passed, $((lint_failed + unit_failed + extra_failed)) failed"
[ "$lint_failed" = 0 ] && [ "$unit_status" = 0 ] && [ "$extra_failed" = 0 ]
