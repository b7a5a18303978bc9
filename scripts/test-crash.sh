#!/usr/bin/env bash
# test-crash.sh: crash consistency of commissioning, on loopback (no root, no LAN, no Avahi).
#
# For every named point of commissioning, on the device (MatterDevice.DeviceCheckpoint) and on the
# commissioner (MatterController.CommissioningCheckpoint), one side is started with the test hook
# MATTER_EMU_TEST_KILL_AT=<point> and SIGKILLs itself exactly there; a few runs kill the device or the
# commissioner from outside (kill -9) at a random moment instead. Whatever died is restarted (the
# device on its state file and port; the commissioner is "restarted" by running it again:
# `pairing resume`, which settles a commissioning it left between AddNOC and its store write), and
# then exactly one of these must hold:
#   commissioned:   the store has the node, `onoff toggle` works, the read-back matches, and the
#                   device reports CommissionedFabrics = 1;
#   commissionable: the store has no node for that ID, and a fresh `pairing already-discovered`
#                   succeeds (then the same checks as above: one fabric, no half-added one left).
# The stores must stay readable throughout. One line per check; the last line is
# `crash: N passed, N failed`. CRASH_SECTIONS="device acl controller random" (the default) picks sections.
set -uo pipefail
cd "$(dirname "$0")/.."
EMU="$(swift build --show-bin-path)/matter-emu"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/matter-emu-crash.XXXXXX")
PASSCODE=20202021
SECTIONS=" ${CRASH_SECTIONS:-device acl controller random} "
# Devices advertise short MRP intervals (SII/SAI 100 ms, negotiated in PASE/CASE): a commissioner
# notices a dead device in about a second instead of three (the MRP constants stay the spec's).
MRP=(--mrp-idle-interval 100 --mrp-active-interval 100)
# A commissioner killed after PASE leaves the device owned by its fail-safe, and other commissioners get
# BUSY until it expires: 10 s here instead of the default 60 s keeps the suite short.
MRP+=(--fail-safe-expiry 10)
passed=0
failed=0
pids=()

ok() { passed=$((passed + 1)); echo "crash: ok   $1"; }
bad() { failed=$((failed + 1)); echo "crash: FAIL $1"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; return 1; fi; }
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
    rm -rf "$WORK"
    echo "crash: $passed passed, $failed failed"
    [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
}
# Bash reports each child that died by a signal ("... Killed ..."): expected here, so not shown.
exec 2> >(grep --line-buffered -vE '^[^ ]*test-crash.sh: line [0-9]+: +[0-9]+ Killed' >&2)
trap 'cleanup; exit $?' EXIT
[ -x "$EMU" ] || { bad "no matter-emu binary at $EMU (swift build first)"; exit 1; }

# start_device DIR PORT [KILL_POINT]: a device on DIR/state (PORT 0: a free one); sets DEVICE_PID and
# DEVICE_PORT once it prints its codes.
start_device() {
    local dir=$1 port=$2 point=${3:-} i
    mkdir -p "$dir"
    MATTER_EMU_TEST_KILL_AT="$point" "$EMU" device --no-advertise --secured-device-port "$port" \
        --passcode "$PASSCODE" --KVS "$dir/device.sqlite" "${MRP[@]}" >>"$dir/device.log" 2>&1 &
    DEVICE_PID=$!
    pids+=("$DEVICE_PID")
    for i in $(seq 1 100); do
        DEVICE_PORT=$(sed -n 's/^Device .* on UDP port \([0-9]*\),.*/\1/p' "$dir/device.log" 2>/dev/null | tail -1)
        [ -n "$DEVICE_PORT" ] && [ "$(grep -c '^Device ' "$dir/device.log" 2>/dev/null)" -ge "$START_COUNT" ] && return 0
        kill -0 "$DEVICE_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "crash: device in $dir did not start:" >&2
    tail -5 "$dir/device.log" >&2
    return 1
}

# wait_exit PID SECONDS: waits for PID (a child of this shell) and sets STATUS to its exit status;
# 255 if it is still running after SECONDS (it is then left running).
wait_exit() {
    local pid=$1 i
    for i in $(seq 1 $(($2 * 10))); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then STATUS=255; return; fi
    wait "$pid" 2>/dev/null
    STATUS=$?
}

ctl() { timeout 180 "$EMU" "$@" --state-dir "$DIR/ctl"; }

has_node() { ctl nodes --json 2>/dev/null | grep -q "\"node\" *: *$1\b"; }

# verify NAME NODE: after a crash and restart, the device is either commissioned (and works) or
# commissionable again (and a fresh commissioning works); the stores stay readable.
verify() {
    local name=$1 node=$2 nodes outcome state fabrics
    if command -v sqlite3 >/dev/null; then
        check "$name: both SQLite files pass PRAGMA integrity_check" bash -c \
            '[ "$(sqlite3 "$1" "PRAGMA integrity_check")" = ok ] && [ "$(sqlite3 "$2" "PRAGMA integrity_check")" = ok ]' \
            _ "$DIR/ctl/controller.sqlite" "$DIR/device.sqlite"
    fi
    nodes=$(ctl nodes --json 2>"$DIR/nodes.err")
    check "$name: the controller's store is readable" test $? = 0
    if grep -q "\"node\" *: *$node\b" <<<"$nodes"; then
        outcome=commissioned
    else
        outcome=commissionable
        check "$name: no half-added node in the store" bash -c '! grep -q "interrupted commissioning" "$1"' _ \
            "$DIR/nodes.err"
        ctl pairing already-discovered "$node" "$PASSCODE" ::1 "$DEVICE_PORT" >"$DIR/again.out" 2>"$DIR/again.err"
        check "$name: not commissioned, so commissionable again: a fresh commissioning succeeds" test $? = 0 ||
            tail -4 "$DIR/again.err"
        grep -q "busy with another commissioning or PASE handshake" "$DIR/again.err" &&
            echo "crash: $name: the fresh commissioning waited for the device to drop the dead one's PASE or fail-safe"
    fi
    ctl onoff toggle "$node" --address "[::1]:$DEVICE_PORT" >/dev/null 2>"$DIR/toggle.err"
    check "$name ($outcome): onoff toggle works" test $? = 0 || tail -2 "$DIR/toggle.err"
    state=$(ctl onoff read on-off "$node" --address "[::1]:$DEVICE_PORT" 2>/dev/null)
    check "$name ($outcome): on-off reads back true after the toggle" test "$state" = true
    fabrics=$(ctl operationalcredentials read commissioned-fabrics "$node" --address "[::1]:$DEVICE_PORT" 2>/dev/null)
    check "$name ($outcome): the device has exactly one fabric (CommissionedFabrics = $fabrics)" test "$fabrics" = 1
    has_node "$node"
    check "$name ($outcome): the store has node $node" test $? = 0
}

stop_device() { kill "$DEVICE_PID" 2>/dev/null; wait "$DEVICE_PID" 2>/dev/null; }

node=0
DEVICE_POINTS=(pase-established arm-fail-safe csr-request add-trusted-root-certificate add-noc
    commissioning-complete-received fabric-committed)
CONTROLLER_POINTS=(discovery pase read-commissioning-info arm-fail-safe configure-regulatory pai-certificate
    dac-certificate attestation-request attestation-verification csr-request issue-noc
    add-trusted-root-certificate pending-recorded add-noc find-operational case-session commissioning-complete
    read-device-types node-stored store-node)

# The device SIGKILLs itself at POINT while a commissioner runs; it is restarted at once.
[[ $SECTIONS == *" device "* ]] || DEVICE_POINTS=()
[[ $SECTIONS == *" controller "* ]] || CONTROLLER_POINTS=()
ACL_POINTS=(acl-written acl-persisted)
[[ $SECTIONS == *" acl "* ]] || ACL_POINTS=()
RANDOM_RUNS=(1 2 3 4 5 6)
[[ $SECTIONS == *" random "* ]] || RANDOM_RUNS=()

for point in "${DEVICE_POINTS[@]}"; do
    node=$((node + 1))
    DIR="$WORK/device-$point"
    START_COUNT=1
    start_device "$DIR" 0 "$point" || { bad "device $point: start"; continue; }
    ctl pairing already-discovered "$node" "$PASSCODE" ::1 "$DEVICE_PORT" >"$DIR/pair.out" 2>"$DIR/pair.err" &
    pairing=$!
    wait_exit "$DEVICE_PID" 20; status=$STATUS
    check "device $point: died by SIGKILL at the point (status $status)" \
        bash -c '[ "$1" = 137 ] && grep -q "test hook: SIGKILL at $2$" "$3"' _ "$status" "$point" "$DIR/device.log"
    START_COUNT=2
    start_device "$DIR" "$DEVICE_PORT" || { bad "device $point: restart"; continue; }
    wait_exit "$pairing" 90; status=$STATUS
    echo "crash: device $point: the running commissioning exited $status" \
        "($(grep -c 'again from PASE' "$DIR/pair.err") restart(s) from PASE)"
    verify "device $point" "$node"
    stop_device
done

# ACL writes after commissioning: the device dies before or after persisting the new ACL.
for point in "${ACL_POINTS[@]}"; do
    node=$((node + 1))
    DIR="$WORK/device-$point"
    START_COUNT=1
    start_device "$DIR" 0 "$point" || { bad "device $point: start"; continue; }
    ctl pairing already-discovered "$node" "$PASSCODE" ::1 "$DEVICE_PORT" >/dev/null 2>"$DIR/pair.err"
    check "device $point: commissioned" test $? = 0
    ctl accesscontrol write acl \
        '[{"privilege":5,"authMode":2,"subjects":[112233],"targets":null},{"privilege":3,"authMode":2,"subjects":[4660],"targets":null}]' \
        "$node" --timeout 2 >/dev/null 2>&1 &
    writer=$!
    wait_exit "$DEVICE_PID" 20; status=$STATUS
    check "device $point: died by SIGKILL at the point (status $status)" \
        bash -c '[ "$1" = 137 ] && grep -q "test hook: SIGKILL at $2$" "$3"' _ "$status" "$point" "$DIR/device.log"
    wait "$writer" 2>/dev/null
    START_COUNT=2
    start_device "$DIR" "$DEVICE_PORT" || { bad "device $point: restart"; continue; }
    acl=$(ctl accesscontrol read acl "$node" 2>/dev/null)
    entries=$(grep -o '"privilege"' <<<"$acl" | wc -l)
    if [ "$point" = acl-written ]; then want=1; else want=2; fi
    check "device $point: after restart the ACL is the $([ $want = 1 ] && echo old || echo new) one ($entries entries)" \
        test "$entries" = "$want"
    verify "device $point" "$node"
    stop_device
done

# The commissioner SIGKILLs itself at POINT; the device keeps running.
for point in "${CONTROLLER_POINTS[@]}"; do
    node=$((node + 1))
    DIR="$WORK/controller-$point"
    START_COUNT=1
    start_device "$DIR" 0 || { bad "controller $point: device start"; continue; }
    MATTER_EMU_TEST_KILL_AT="$point" "$EMU" pairing already-discovered "$node" "$PASSCODE" ::1 "$DEVICE_PORT" \
        --state-dir "$DIR/ctl" >"$DIR/pair.out" 2>"$DIR/pair.err" &
    wait_exit $! 60; status=$STATUS
    check "controller $point: died by SIGKILL at the point (status $status)" \
        bash -c '[ "$1" = 137 ] && grep -q "test hook: SIGKILL at $2$" "$3"' _ "$status" "$point" "$DIR/pair.err"
    ctl pairing resume >"$DIR/resume.out" 2>"$DIR/resume.err"
    check "controller $point: restarted, 'pairing resume' settles what it left ($(tr '\n' ' ' <"$DIR/resume.err"))" \
        test $? = 0
    verify "controller $point" "$node"
    stop_device
done

# Outside kill -9 at a random moment of a commissioning: the device (then restarted), or the
# commissioner (then resumed).
for run in "${RANDOM_RUNS[@]}"; do
    node=$((node + 1))
    DIR="$WORK/random-$run"
    START_COUNT=1
    start_device "$DIR" 0 || { bad "random $run: device start"; continue; }
    "$EMU" pairing already-discovered "$node" "$PASSCODE" ::1 "$DEVICE_PORT" --state-dir "$DIR/ctl" \
        >"$DIR/pair.out" 2>"$DIR/pair.err" &
    pairing=$!
    # A random moment: once the commissioner printed a random number of its 18 stages (a few more
    # may finish before the kill lands: on loopback a stage takes a few milliseconds).
    target=$((RANDOM % 17 + 1))
    # The last run kills the commissioner right after discovery: most likely in the middle of PASE,
    # which leaves the device waiting for a dead initiator (it answers others BUSY for up to 30 s).
    [ "$run" = "${RANDOM_RUNS[-1]}" ] && target=1
    for _ in $(seq 1 2000); do
        [ "$(grep -c '^  ok' "$DIR/pair.err" 2>/dev/null)" -ge "$target" ] && break
        kill -0 "$pairing" 2>/dev/null || break
        sleep 0.002
    done
    if [ $((run % 2)) = 1 ]; then
        kill -9 "$DEVICE_PID"
        stages=$(grep -c '^  ok' "$DIR/pair.err")
        wait "$DEVICE_PID" 2>/dev/null
        START_COUNT=2
        start_device "$DIR" "$DEVICE_PORT" || { bad "random $run: restart"; continue; }
        wait_exit "$pairing" 90
        echo "crash: random $run: device killed once $target stages were printed, $stages stages done; the commissioning exited $STATUS"
    else
        kill -9 "$pairing" 2>/dev/null
        stages=$(grep -c '^  ok' "$DIR/pair.err")
        wait "$pairing" 2>/dev/null
        ctl pairing resume >/dev/null 2>"$DIR/resume.err"
        echo "crash: random $run: commissioner killed once $target stages were printed, $stages stages done;" \
            "resume: $(tr '\n' ' ' <"$DIR/resume.err")"
    fi
    verify "random kill -9 $run" "$node"
    stop_device
done
