#!/usr/bin/env bash
# Fuzzes matter-emu's decoders with libFuzzer for a bounded time (docs/RELIABILITY.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#       SECONDS per target (default $FUZZ_SECONDS or 10); TARGETs default to all of
#       tlv message onboarding certificate x509 im securechannel dns
#
# The targets live in Fuzz/ and are declared in Package.swift only when MATTER_EMU_FUZZ is set, so a plain
# `swift build`/`swift test` never sees them. They are built here with `-sanitize=fuzzer,address` (warnings are
# errors) in their own scratch path (.build/fuzz, so the normal build's cache is untouched), with `-enable-testing`
# because some decoders are internal and reached with `@testable import`. Each target runs on a copy of its seed
# corpus (fixtures/fuzz/<target>/, never modified); the grown corpora and any crash artifacts stay in a work
# directory under /tmp, printed at the end. A crash, a broken round-trip invariant, a timeout (-timeout) or an
# out-of-memory (-rss_limit_mb) fails the target; its reproducer's path and hex are printed. Replay one with
# `<binary> <reproducer>`.
#
# Environment: FUZZ_CONFIGURATION=release|debug (default release: about 3x the executions per second of debug),
# FUZZ_SCRATCH (scratch path, default .build/fuzz), FUZZ_WORK (work directory, default a new /tmp/matter-emu-fuzz.*),
# FUZZ_ARGS (extra libFuzzer flags, e.g. "-seed=1 -runs=100000").
# The last line is `fuzz: N passed, N failed` (N = targets).
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-${FUZZ_SECONDS:-10}}
shift $(($# > 0 ? 1 : 0))
all_targets=(tlv message onboarding certificate x509 im securechannel dns)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
configuration=${FUZZ_CONFIGURATION:-release}
scratch=${FUZZ_SCRATCH:-.build/fuzz}
work=${FUZZ_WORK:-$(mktemp -d /tmp/matter-emu-fuzz.XXXXXX)}
mkdir -p "$work"

if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" = 0 ]; then
    echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]  (targets: ${all_targets[*]})" >&2
    exit 2
fi
for target in "${targets[@]}"; do
    if [ ! -d "fixtures/fuzz/$target" ]; then
        echo "fuzz: unknown target '$target' (targets: ${all_targets[*]})" >&2
        exit 2
    fi
done

export MATTER_EMU_FUZZ=1
build_flags=(-c "$configuration" --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
             -Xswiftc -warnings-as-errors)
bin=$(swift build "${build_flags[@]}" --show-bin-path)
echo "fuzz: building ${#targets[@]} target(s) ($configuration, -sanitize=fuzzer,address) into $bin" >&2
build_failed=()
for target in "${targets[@]}"; do
    log="$work/build-$target.log"
    if ! swift build "${build_flags[@]}" --product "fuzz-$target" >"$log" 2>&1; then
        build_failed+=("$target")
        # ld.gold warns once per ASan helper symbol it cannot export: noise, not a problem.
        grep -vE "^\[[0-9]+/[0-9]+\]|Cannot export local symbol" "$log" | tail -30 >&2
    fi
done
if ((${#build_failed[@]})); then
    echo "fuzz: build failed for: ${build_failed[*]} (logs in $work)" >&2
    echo "fuzz: 0 passed, ${#targets[@]} failed"
    exit 1
fi

# stat NAME LOG: a libFuzzer final statistic (-print_final_stats=1).
stat() { sed -n "s/^stat::$1: *\([0-9]*\).*/\1/p" "$2" | tail -1; }

passed=0
failed=0
for target in "${targets[@]}"; do
    corpus="$work/$target/corpus"
    artifacts="$work/$target/artifacts"
    log="$work/$target/fuzz.log"
    mkdir -p "$corpus" "$artifacts"
    cp fixtures/fuzz/"$target"/* "$corpus"/
    seeds=$(find "$corpus" -type f | wc -l)
    # -timeout: one input taking longer is a hang; -rss_limit_mb: memory growth is an OOM; -max_len: datagrams
    # and certificates stay well below 4 KiB (a Matter UDP message is at most 1280 bytes). No leak checks
    # (-detect_leaks=0 per input, ASan's detect_leaks=0 at exit): LeakSanitizer reports Swift's lazily initialised
    # globals (the cluster schema tables) as leaked, since references kept in enum payloads use spare pointer
    # bits it cannot follow; memory growth is still caught by -rss_limit_mb.
    # shellcheck disable=SC2086  # FUZZ_ARGS holds several flags
    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$bin/fuzz-$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -detect_leaks=0 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" ${FUZZ_ARGS:-} "$corpus" >"$log" 2>&1
    status=$?
    runs=$(stat number_of_executed_units "$log")
    rate=$(stat average_exec_per_sec "$log")
    size=$(find "$corpus" -type f | wc -l)
    reproducers=$(find "$artifacts" -type f | sort)
    if [ "$status" = 0 ] && [ -z "$reproducers" ]; then
        passed=$((passed + 1))
        echo "fuzz: $target: ok, ${runs:-?} runs in ${seconds} s (${rate:-?}/s), corpus $seeds -> $size inputs" >&2
    else
        failed=$((failed + 1))
        echo "fuzz: $target: FAILED (exit $status) after ${runs:-?} runs; log $log" >&2
        grep -E "^==[0-9]+==ERROR|^SUMMARY|Fatal error|fuzz invariant broken|ALARM|out-of-memory|deadly signal" \
            "$log" | head -8 >&2
        for reproducer in $reproducers; do
            echo "fuzz: $target: reproducer $reproducer ($(wc -c <"$reproducer") bytes):" >&2
            od -An -v -tx1 "$reproducer" | tr -d ' \n' | fold -w 96 >&2
            echo >&2
            echo "fuzz: $target: replay with: $bin/fuzz-$target $reproducer" >&2
        done
    fi
done
echo "fuzz: corpora and logs in $work" >&2
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
