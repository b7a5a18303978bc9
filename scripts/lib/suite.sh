# scripts/lib/suite.sh - the one shared part of the suite wrappers (sourced, not run): bring the virtual
# LAN of scripts/lan.sh up with a trap that always takes it down, export where it is, run one Swift
# Testing suite with `swift test --skip-build --filter`, count its tests and print the last line
# `NAME: N passed, N failed` that scripts/test.sh's `suite` function reads. No test logic lives here:
# the checks are Swift tests (Tests/MatterLANTests), enabled only when this environment is exported.
#
#   lan_suite NAME SUITE HOSTS
#       NAME   the name on the last line (network, commissioner, hostile)
#       SUITE  the test suite, e.g. MatterLANTests.NetworkTests
#       HOSTS  how many hosts `lan.sh up` makes (PREFIX-h1..PREFIX-hHOSTS)
#
# Exported to the tests: MATTER_LAN_SUITE (NAME), MATTER_LAN_PREFIX, MATTER_LAN_HOSTS, MATTER_LAN_STATE,
# MATTER_LAN_SCRIPT (the absolute path of lan.sh) and MATTER_LAN_ROOT (the package root).
# Env: MATTER_LAN_PREFIX (a wrapper sets its default before sourcing), MATTER_LAN_STATE as for lan.sh;
# SUITE_SKIP_BUILD=1 skips the incremental `swift build --build-tests` (scripts/test.sh has just built).

# suite_count LOG: "PASSED FAILED" from Swift Testing's console lines `Test X passed after ...` (a
# parameterized test counts its cases: `Test X with N test cases passed after ...`) and `Test X failed
# after ...`; the `Test run ...` summary and `recorded an issue` lines are not tests.
suite_count() {
    sed 's/\x1b\[[0-9;]*m//g' "$1" | awk '
        / Test run with / || /recorded an issue/ { next }
        /^[^ ]+ Test .* passed after [0-9.]+ seconds/ {
            n = 1
            if (match($0, /with [0-9]+ test cases passed/)) { split(substr($0, RSTART, RLENGTH), w, " "); n = w[2] }
            passed += n
        }
        /^[^ ]+ Test .* failed after [0-9.]+ seconds/ { failed += 1 }
        END { print passed + 0, failed + 0 }'
}

lan_suite() {
    local name=$1 suite=$2 hosts=$3
    cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
    SUITE_NAME=$name
    SUITE_LOG=$(mktemp /tmp/matter-emu-suite-"$name".XXXXXX)
    SUITE_LAN_UP=0
    trap suite_finish EXIT
    trap 'exit 130' INT TERM
    if [ "$(id -u)" != 0 ]; then
        echo "$name: needs root (network namespaces)" >&2
        SUITE_STATUS=1
        exit 1
    fi
    local prefix=${MATTER_LAN_PREFIX:-me}
    if [ "$prefix" = me ]; then
        export MATTER_LAN_STATE=${MATTER_LAN_STATE:-/tmp/matter-emu-lan}
    else
        export MATTER_LAN_STATE=${MATTER_LAN_STATE:-/tmp/matter-emu-lan-$prefix}
    fi
    export MATTER_LAN_PREFIX=$prefix MATTER_LAN_HOSTS=$hosts MATTER_LAN_SUITE=$name
    export MATTER_LAN_SCRIPT=$PWD/scripts/lan.sh MATTER_LAN_ROOT=$PWD
    if [ "${SUITE_SKIP_BUILD:-0}" != 1 ]; then
        echo "$name: building (swift build --build-tests)" >&2
        if ! swift build --build-tests -Xswiftc -warnings-as-errors >"$SUITE_LOG" 2>&1; then
            cat "$SUITE_LOG" >&2
            SUITE_STATUS=1
            exit 1
        fi
    fi
    # A LAN of this prefix that is already up belongs to another run: refused, and left as it is.
    if ip netns list 2>/dev/null | awk '{print $1}' | grep -qE "^$prefix-(lan|h[0-9]+)\$"; then
        echo "$name: a LAN with prefix $prefix is already up (another run?); choose another MATTER_LAN_PREFIX" >&2
        SUITE_STATUS=1
        exit 1
    fi
    SUITE_LAN_UP=1
    if ! ./scripts/lan.sh up "$hosts" >&2; then
        echo "$name: lan.sh up $hosts failed" >&2
        SUITE_STATUS=1
        exit 1
    fi
    # A wrapper may define suite_after_up (more set-up on the LAN) and suite_before_down (its undoing).
    if declare -F suite_after_up >/dev/null && ! suite_after_up; then
        echo "$name: the set-up after lan.sh up failed" >&2
        SUITE_STATUS=1
        exit 1
    fi
    swift test --skip-build --filter "$suite" 2>&1 | tee "$SUITE_LOG"
    SUITE_STATUS=${PIPESTATUS[0]}
    exit "$SUITE_STATUS"
}

# The EXIT trap: take the LAN down (always; idempotent), then print the counts.
suite_finish() {
    local passed failed
    trap - EXIT INT TERM
    if [ "${SUITE_LAN_UP:-0}" = 1 ] && declare -F suite_before_down >/dev/null; then suite_before_down >&2 || true; fi
    if [ "${SUITE_LAN_UP:-0}" = 1 ]; then ./scripts/lan.sh down >/dev/null 2>&1 || ./scripts/lan.sh down >&2; fi
    read -r passed failed < <(suite_count "$SUITE_LOG")
    rm -f "$SUITE_LOG"
    # A run that failed without a failed test (a crash, a build or LAN failure), or that ran nothing, fails.
    if [ "${SUITE_STATUS:-1}" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
    if [ "$passed" = 0 ] && [ "$failed" = 0 ]; then failed=1; fi
    echo "$SUITE_NAME: $passed passed, $failed failed"
    [ "$failed" = 0 ] && exit 0
    exit 1
}
