#!/usr/bin/env bash
# interop-chip.sh: the connectedhomeip SDK's own Python controller (PyPI home-assistant-chip-core
# 2025.7.0, in a venv this script creates) commissions and drives `matter-emu device` on the virtual
# LAN of scripts/lan.sh (root): by QR code, by manual code and by passcode+discriminator, with
# attestation verified against our PAA (fixtures/pki/paa-trust-store), for a dimmable light, a plug
# and a colour-temperature light; the control plane (subscriptions to a light and a lock moved by
# `matter-emu ctl`: OnOff, a jam, a reboot). Last line: `interop: N passed, N failed`; exit 1 on any failure.
# Env: CHIP_VENV (default /opt/matter-emu/chipvenv); MATTER_LAN_PREFIX as for lan.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
LAN=./scripts/lan.sh
LP=${MATTER_LAN_PREFIX:-me} # hosts $LP-h1, $LP-h2, as lan.sh names them
CHIP_VENV=${CHIP_VENV:-/opt/matter-emu/chipvenv}
WORK=$(mktemp -d /tmp/matter-emu-interop.XXXXXX)
passed=0
failed=0
device_pid=""
second_pid=""

summary() { echo "interop: $passed passed, $failed failed"; }
cleanup() {
    [ -n "$device_pid" ] && kill "$device_pid" 2>/dev/null
    [ -n "$second_pid" ] && kill "$second_pid" 2>/dev/null
    $LAN down >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap 'cleanup; summary; [ "$failed" = 0 ] && [ "$passed" -gt 0 ]; exit $?' EXIT

[ "$(id -u)" = 0 ] || { echo "interop: needs root (network namespaces)" >&2; failed=1; exit 1; }
if ! "$CHIP_VENV/bin/python" -c 'import chip.ChipDeviceCtrl' 2>/dev/null; then
    echo "interop: creating $CHIP_VENV (home-assistant-chip-core 2025.7.0)" >&2
    python3 -m venv "$CHIP_VENV" && "$CHIP_VENV/bin/pip" install -q \
        home-assistant-chip-core==2025.7.0 home-assistant-chip-clusters==2025.7.0 >&2 \
        || { echo "interop: could not install the SDK controller" >&2; failed=1; exit 1; }
fi
EMU="$(swift build --show-bin-path)/matter-emu"
[ -x "$EMU" ] || { echo "interop: build matter-emu first (scripts/setup.sh)" >&2; failed=1; exit 1; }
PAA="$PWD/fixtures/pki/paa-trust-store"

$LAN up 2 >&2 || { echo "interop: lan.sh up failed" >&2; failed=1; exit 1; }

# start_device TYPE [extra flags...]: a device of TYPE on $LP-h1 with its state in $WORK/TYPE.
start_device() {
    local type=$1
    shift
    local log="$WORK/$type.device.log"
    $LAN exec $LP-h1 "$EMU" device --type "$type" --state-dir "$WORK/$type" --json \
        --discriminator 3840 --passcode 20202021 "$@" >>"$log" 2>&1 &
    device_pid=$!
    local i
    for i in $(seq 1 100); do [ "$(grep -c '"event":"started"' "$log")" -ge "$starts" ] && break; sleep 0.1; done
}

stop_device() {
    [ -n "$device_pid" ] && kill "$device_pid" 2>/dev/null && wait "$device_pid" 2>/dev/null
    device_pid=""
}

# driver NAME ARGS...: the SDK controller on $LP-h2; counts its [PASS]/[FAIL] lines.
driver() {
    local name=$1 out p f
    shift
    out=$($LAN exec $LP-h2 timeout 240 "$CHIP_VENV/bin/python" scripts/interop/chip_driver.py --paa "$PAA" "$@" \
        2>"$WORK/driver.err")
    echo "$out" | sed "s/^/  [$name] /" >&2
    p=$(echo "$out" | grep -c '^\[PASS\]')
    f=$(echo "$out" | grep -c '^\[FAIL\]')
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$p" = 0 ] && [ "$f" = 0 ]; then
        failed=$((failed + 1))
        echo "interop: $name: the driver reported nothing; stderr:" >&2
        tail -20 "$WORK/driver.err" >&2
    fi
    return "$f"
}

code_of() { # TYPE FIELD -> the qrCode/manualCode the device printed
    sed -n "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p" "$WORK/$1.device.log" | head -1
}

# 1. A dimmable light by QR code; control; a second fabric; then a restart and a reconnect.
starts=1
start_device dimmable-light --factory-reset
driver "dimmable-light qr" --work /data/chip-light --qr "$(code_of dimmable-light qrCode)" --second-fabric \
    || tail -30 "$WORK/dimmable-light.device.log" >&2
stop_device
starts=2
start_device dimmable-light
driver "dimmable-light restart" --work /data/chip-light --reconnect || tail -20 "$WORK/dimmable-light.device.log" >&2
stop_device

# 2. A plug by manual code; 3. a colour-temperature light by passcode + discriminator.
starts=1
start_device on-off-plug --factory-reset
driver "on-off-plug manual" --work /data/chip-plug --manual "$(code_of on-off-plug manualCode)" --no-level \
    || tail -30 "$WORK/on-off-plug.device.log" >&2
stop_device
start_device color-temperature-light --factory-reset
driver "color-temperature-light pin" --work /data/chip-ct --passcode 20202021 --discriminator 3840 \
    || tail -30 "$WORK/color-temperature-light.device.log" >&2
stop_device

# 4. One device of a running fleet of 20; the other 19 stay commissionable.
fleet_log="$WORK/fleet.log"
$LAN exec $LP-h1 "$EMU" fleet --count 20 --state-dir "$WORK/fleet" --factory-reset --base-discriminator 3000 --json \
    >"$fleet_log" 2>&1 &
device_pid=$!
for i in $(seq 1 300); do grep -q '"devices"' "$fleet_log" && break; sleep 0.1; done
# The QR code: its long discriminator is unique in the fleet (20 devices share a few short ones).
target=$(grep -o '"index":7,[^}]*' "$fleet_log" | sed -n 's/.*"qrCode":"\(MT:[^"]*\)".*/\1/p' | head -1)
if [ -z "$target" ]; then
    failed=$((failed + 1))
    echo "interop: the fleet did not start" >&2
    tail -20 "$fleet_log" >&2
else
    driver "fleet device 7" --work /data/chip-fleet --qr "$target" --commission-only || tail -20 "$fleet_log" >&2
    sleep 2
    still=$($LAN exec $LP-h2 "$EMU" discover commissionable --commissioning-mode --timeout 4 --json 2>/dev/null \
        | grep -c '"instance"')
    if [ "$still" = 19 ]; then
        passed=$((passed + 1))
        echo "  [fleet] [PASS] the other 19 devices stay commissionable" >&2
    else
        failed=$((failed + 1))
        echo "  [fleet] [FAIL] $still devices commissionable after one was commissioned (expected 19)" >&2
    fi
fi
stop_device

# 5. The control plane (docs/CONTROL.md): a light and a door lock with --control sockets; the SDK
# controller subscribes to both, `matter-emu ctl` sets OnOff, jams the lock and reboots the light.
light_log="$WORK/cp-light.log"
lock_log="$WORK/cp-lock.log"
$LAN exec $LP-h1 "$EMU" device --type on-off-light --state-dir "$WORK/cp-light" --factory-reset --json \
    --secured-device-port 5540 --discriminator 3840 --passcode 20202021 --control "$WORK/light.sock" \
    >"$light_log" 2>&1 &
device_pid=$!
$LAN exec $LP-h1 "$EMU" device --type door-lock --state-dir "$WORK/cp-lock" --factory-reset --json \
    --secured-device-port 5541 --discriminator 3841 --passcode 20202021 --control "$WORK/lock.sock" \
    >"$lock_log" 2>&1 &
second_pid=$!
for i in $(seq 1 100); do grep -q '"event":"started"' "$light_log" && grep -q '"event":"started"' "$lock_log" && break
    sleep 0.1; done
events_driver() {
    local out p f
    out=$($LAN exec $LP-h2 timeout 300 "$CHIP_VENV/bin/python" scripts/interop/chip_events.py --paa "$PAA" \
        --emu "$EMU" --light-control "$WORK/light.sock" --lock-control "$WORK/lock.sock" --work /data/chip-events \
        2>"$WORK/driver.err")
    echo "$out" | sed "s/^/  [control plane] /" >&2
    p=$(echo "$out" | grep -c '^\[PASS\]')
    f=$(echo "$out" | grep -c '^\[FAIL\]')
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$p" = 0 ] && [ "$f" = 0 ]; then
        failed=$((failed + 1))
        echo "interop: control plane: the driver reported nothing; stderr:" >&2
        tail -20 "$WORK/driver.err" >&2
    fi
    [ "$f" = 0 ]
}
events_driver || { tail -20 "$light_log" >&2; tail -20 "$lock_log" >&2; }
stop_device
kill "$second_pid" 2>/dev/null && wait "$second_pid" 2>/dev/null
second_pid=""
