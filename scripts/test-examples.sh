#!/usr/bin/env bash
# test-examples.sh: the examples suite (no root, loopback only).
#
# Examples/HomeQuickStart is an outside package that depends on matter-emu by path (`.package(path:
# "../..")`) and imports MatterHome and MatterDevice the way a user's package would. This builds it
# with warnings as errors and runs it: it starts an on/off light, a dimmable light, a colour-temperature
# light and a door lock in its own process, commissions each through
# `structure.commissionMatterDevice(onboardingPayload:)`, runs every code sample of the Home API's
# commissioning and device-control guides
# (Sources/HomeQuickStart/GuideSamples.swift) and checks what they did (`check ok:` / `check FAILED:`).
#
# The package builds in its own scratch directory (.build/examples, kept between runs: the package
# shares nothing with the main .build, so a first build compiles matter-emu again, a few minutes on
# two cores; later ones are incremental). Counts: the build is one check, each `check` line one
# more; a run that fails without saying which check counts as one failure.
# The last line is `examples: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
SCRATCH=${EXAMPLES_SCRATCH:-.build/examples}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/matter-emu-examples.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "examples: ok   $1"; }
bad() { failed=$((failed + 1)); echo "examples: FAIL $1"; }

start=$(date +%s)
if swift build --package-path Examples/HomeQuickStart --scratch-path "$SCRATCH" -Xswiftc -warnings-as-errors \
    >"$WORK/build.log" 2>&1; then
    ok "HomeQuickStart builds against matter-emu by path ($(($(date +%s) - start)) s)"
    timeout 120 "$SCRATCH/debug/HomeQuickStart" "$WORK/state" >"$WORK/run.log" 2>"$WORK/run.err"
    status=$?
    grep -E '^check (ok|FAILED):' "$WORK/run.log" | sed 's/^/  /'
    run_passed=$(grep -c '^check ok:' "$WORK/run.log")
    run_failed=$(grep -c '^check FAILED:' "$WORK/run.log")
    passed=$((passed + run_passed))
    failed=$((failed + run_failed))
    if [ "$status" != 0 ] && [ "$run_failed" = 0 ]; then
        bad "HomeQuickStart exited $status"
        tail -20 "$WORK/run.log" "$WORK/run.err"
    elif [ "$status" = 0 ]; then
        echo "examples: HomeQuickStart ran: $run_passed checks passed"
    fi
else
    bad "HomeQuickStart builds against matter-emu by path"
    grep -vE '^\[[0-9]+/[0-9]+\] ' "$WORK/build.log" | tail -40
fi
echo "examples: $passed passed, $failed failed"
[ "$failed" = 0 ]
