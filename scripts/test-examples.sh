#!/usr/bin/env bash
# test-examples.sh: the examples suite (no root, loopback only).
#
# Examples/HomeQuickStart is an outside package that depends on matter-emu by path (`.package(path:
# "../..")`) and imports MatterHome and MatterDevice the way a user's package would. This builds it and
# its tests with warnings as errors and runs its Swift Testing suite (Tests/HomeQuickStartTests: each
# sample of the Home API's commissioning and device-control guides on devices started in the test's own
# process and commissioned over loopback, and the quick start executable run as a user runs it). This
# script only builds, runs `swift test` and counts (suite_count of scripts/lib/suite.sh).
#
# The package builds in its own scratch directory (.build/examples, kept between runs: the package
# shares nothing with the main .build, so a first build compiles matter-emu again, a few minutes on
# two cores; later ones are incremental). Counts: the build is one test, then each test of the suite;
# a run that fails without a failed test (a crash) counts as one failure.
# The last line is `examples: N passed, N failed`. Env: EXAMPLES_SCRATCH (the scratch directory).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/suite.sh
SCRATCH=${EXAMPLES_SCRATCH:-.build/examples}
LOG=$(mktemp "${TMPDIR:-/tmp}/matter-emu-examples.XXXXXX")
trap 'rm -f "$LOG"' EXIT
package=(--package-path Examples/HomeQuickStart --scratch-path "$SCRATCH")

start=$(date +%s)
if ! swift build "${package[@]}" --build-tests -Xswiftc -warnings-as-errors >"$LOG" 2>&1; then
    grep -vE '^\[[0-9]+/[0-9]+\] ' "$LOG" | tail -40
    echo "examples: FAIL HomeQuickStart builds against matter-emu by path"
    echo "examples: 0 passed, 1 failed"
    exit 1
fi
echo "examples: ok   HomeQuickStart and its tests build against matter-emu by path ($(($(date +%s) - start)) s)"

swift test "${package[@]}" --skip-build 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
read -r passed failed < <(suite_count "$LOG")
if [ "$status" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
if [ "$passed" = 0 ] && [ "$failed" = 0 ]; then failed=1; fi
echo "examples: $((passed + 1)) passed, $failed failed"
[ "$failed" = 0 ]
