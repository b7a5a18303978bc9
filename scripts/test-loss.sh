#!/usr/bin/env bash
# test-loss.sh: commissioning and commands through packet loss, on loopback (no root, no LAN).
#
# Each run starts a fresh device with the transport's fault injection dropping each datagram it
# sends or receives (both directions: FaultInjectingTransport wraps the device's socket) with
# probability P, then commissions it with `matter-emu pairing already-discovered` and runs 5 commands
# (On, Off, On, Off, On), each checked by reading OnOff back, every one a separate `matter-emu`
# process (a CASE session each). Runs at P = 0 (baseline), 0.1 and 0.3 (LOSS_RATES), LOSS_RUNS (50)
# runs each, interleaved, LOSS_PARALLEL (24) at once (lossy runs mostly wait on MRP timers). The device advertises
# SII = SAI = 100 ms (session parameters in PASE/CASE: peers retransmit to it at that pace); the
# commissioner keeps the spec defaults (500/300 ms); MRP's constants (5 transmissions, back-off) are
# the spec's.
#
# Prints one line per rate and check, then a table for docs/RELIABILITY.md (success rates, p50/p95
# latencies and what the loss adds to them: commissioning as its stages' own total, one command as
# the wall time of its `matter-emu` process, start-up and CASE included). Success criterion:
# every commissioning and every command succeeds at every rate (retries of unanswered requests and
# restarts from PASE make MRP's give-ups recoverable). The last line is `loss: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
EMU="$(swift build --show-bin-path)/matter-emu"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/matter-emu-loss.XXXXXX")
RUNS=${LOSS_RUNS:-50}
PARALLEL=${LOSS_PARALLEL:-24}
RATES=(${LOSS_RATES:-0 0.1 0.3})
COMMANDS=5
PASSCODE=20202021
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "loss: ok   $1"; }
bad() { failed=$((failed + 1)); echo "loss: FAIL $1"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; return 1; fi; }
cleanup() {
    local pid
    # Runs stop their own devices; stop whatever a failed or interrupted run left.
    for pid in $(jobs -p); do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    for pidfile in "$WORK"/*/device.pid; do
        [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
    done
    rm -rf "$WORK"
    echo "loss: $passed passed, $failed failed"
    [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
}
trap 'cleanup; exit $?' EXIT
[ -x "$EMU" ] || { bad "no matter-emu binary at $EMU (swift build first)"; exit 1; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# run_one RATE INDEX: one device, one commissioning, COMMANDS commands with read-back. Writes
# DIR/result: `commissioned <0|1> <ms>` then one `command <0|1> <ms>` line per command.
run_one() {
    local rate=$1 index=$2 dir="$WORK/$1-$2" port="" t0 t1 i value want device
    mkdir -p "$dir"
    "$EMU" device --no-advertise --secured-device-port 0 --KVS "$dir/device.sqlite" --passcode "$PASSCODE" \
        --drop "$rate" --fault-seed "$((index + 1))" --mrp-idle-interval 100 --mrp-active-interval 100 \
        >"$dir/device.log" 2>&1 &
    device=$!
    echo "$device" >"$dir/device.pid"
    for i in $(seq 1 100); do
        port=$(sed -n 's/^Device .* on UDP port \([0-9]*\),.*/\1/p' "$dir/device.log" 2>/dev/null)
        [ -n "$port" ] && break
        sleep 0.1
    done
    if [ -z "$port" ]; then
        echo "commissioned 0 0 (device did not start)" >"$dir/result"
        kill "$device" 2>/dev/null
        return
    fi
    t0=$(now_ms)
    timeout 300 "$EMU" pairing already-discovered 1 "$PASSCODE" ::1 "$port" --state-dir "$dir/ctl" \
        >"$dir/pair.out" 2>"$dir/pair.err"
    local status=$?
    t1=$(now_ms)
    # Commissioning latency: the stages' own total (discovery to store), without process start-up.
    local took
    took=$(sed -n 's/^commissioned node .* in \([0-9]*\) ms$/\1/p' "$dir/pair.out")
    echo "commissioned $([ $status = 0 ] && echo 1 || echo 0) ${took:-$((t1 - t0))}" >"$dir/result"
    if [ $status = 0 ]; then
        for i in $(seq 1 $COMMANDS); do
            if [ $((i % 2)) = 1 ]; then value=on; want=true; else value=off; want=false; fi
            t0=$(now_ms)
            timeout 120 "$EMU" onoff "$value" 1 --state-dir "$dir/ctl" >/dev/null 2>>"$dir/commands.err"
            status=$?
            t1=$(now_ms)
            local state
            state=$(timeout 120 "$EMU" onoff read on-off 1 --state-dir "$dir/ctl" 2>>"$dir/commands.err")
            [ $status = 0 ] && [ "$state" = "$want" ] && status=1 || status=0
            echo "command $status $((t1 - t0))" >>"$dir/result"
        done
    fi
    kill "$device" 2>/dev/null
    wait "$device" 2>/dev/null
}

# percentile P FILE: the P-th percentile (nearest rank) of the numbers in FILE, one per line.
percentile() {
    sort -n "$2" | awk -v p="$1" '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit } r = int((p * NR + 99) / 100); if (r < 1) r = 1; print v[r] }'
}

declare -A COMMISSION_OK COMMAND_OK COMMAND_TOTAL C50 C95 I50 I95
# The rates' runs are interleaved, so that every rate sees the same load (the machine's and our own
# processes'): the latencies compare like with like.
start=$(date +%s)
running=0
for index in $(seq 1 "$RUNS"); do
    for rate in "${RATES[@]}"; do
        run_one "$rate" "$index" &
        running=$((running + 1))
        if [ "$running" -ge "$PARALLEL" ]; then
            wait -n
            running=$((running - 1))
        fi
    done
done
wait
wall=$(($(date +%s) - start))

for rate in "${RATES[@]}"; do
    cat "$WORK/$rate"-*/result >"$WORK/$rate.results" 2>/dev/null
    awk '$1 == "commissioned" && $2 == 1 { print $3 }' "$WORK/$rate.results" >"$WORK/$rate.commission-ms"
    awk '$1 == "command" && $2 == 1 { print $3 }' "$WORK/$rate.results" >"$WORK/$rate.command-ms"
    COMMISSION_OK[$rate]=$(awk '$1 == "commissioned" && $2 == 1' "$WORK/$rate.results" | wc -l)
    COMMAND_OK[$rate]=$(awk '$1 == "command" && $2 == 1' "$WORK/$rate.results" | wc -l)
    COMMAND_TOTAL[$rate]=$((RUNS * COMMANDS))
    C50[$rate]=$(percentile 50 "$WORK/$rate.commission-ms")
    C95[$rate]=$(percentile 95 "$WORK/$rate.commission-ms")
    I50[$rate]=$(percentile 50 "$WORK/$rate.command-ms")
    I95[$rate]=$(percentile 95 "$WORK/$rate.command-ms")
    restarts=$(cat "$WORK/$rate"-*/pair.err 2>/dev/null | grep -c 'again from PASE')
    echo "loss: drop $rate: $RUNS runs; commissioning ${COMMISSION_OK[$rate]}/$RUNS" \
        "(p50 ${C50[$rate]} ms, p95 ${C95[$rate]} ms, $restarts restart(s) from PASE); commands" \
        "${COMMAND_OK[$rate]}/${COMMAND_TOTAL[$rate]} (p50 ${I50[$rate]} ms, p95 ${I95[$rate]} ms)"
    check "drop $rate: every commissioning succeeded (${COMMISSION_OK[$rate]}/$RUNS)" \
        test "${COMMISSION_OK[$rate]}" = "$RUNS" || {
        for f in "$WORK/$rate"-*/pair.err; do
            grep -q "^error" "$f" && { echo "  $(dirname "$f"):"; grep -E "FAIL|^error" "$f" | head -3; }
        done
    }
    check "drop $rate: every command succeeded and read back (${COMMAND_OK[$rate]}/${COMMAND_TOTAL[$rate]})" \
        test "${COMMAND_OK[$rate]}" = "${COMMAND_TOTAL[$rate]}" || {
        cat "$WORK/$rate"-*/commands.err 2>/dev/null | grep "^error" | sort | uniq -c | head -5
    }
done

# The table for docs/RELIABILITY.md; "added" is the difference to the baseline's percentile.
base=${RATES[0]}
echo
echo "$RUNS runs per rate, rates interleaved, $PARALLEL runs at a time, $wall s in all, on $(nproc) cores;" \
    "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
added() { [ "$1" = - ] || [ "$2" = - ] && echo - || echo "+$(($1 - $2))"; }
echo
echo "| drop (each direction) | commissioning ok | p50 ms | p95 ms | added p50/p95 ms | commands ok | p50 ms | p95 ms | added p50/p95 ms |"
echo "|---|---|---|---|---|---|---|---|---|"
for rate in "${RATES[@]}"; do
    echo "| $(awk -v r="$rate" 'BEGIN { printf "%g %%", r * 100 }') | ${COMMISSION_OK[$rate]}/$RUNS" \
        "| ${C50[$rate]} | ${C95[$rate]} | $(added "${C50[$rate]}" "${C50[$base]}") / $(added "${C95[$rate]}" "${C95[$base]}")" \
        "| ${COMMAND_OK[$rate]}/${COMMAND_TOTAL[$rate]} | ${I50[$rate]} | ${I95[$rate]}" \
        "| $(added "${I50[$rate]}" "${I50[$base]}") / $(added "${I95[$rate]}" "${I95[$base]}") |"
done
echo
