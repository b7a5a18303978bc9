#!/usr/bin/env bash
# interop-chip.sh: the connectedhomeip SDK's own Python controller (PyPI home-assistant-chip-core
# 2025.7.0, in a venv this script creates) commissions and drives `matter-emu device` on the virtual
# LAN of scripts/lan.sh (root): by QR code, by manual code and by passcode+discriminator, with
# attestation verified against our PAA (fixtures/pki/paa-trust-store), for a dimmable light, a plug
# and a colour-temperature light. Last line: `interop: N passed, N failed`; exit 1 on any failure.
# Env: CHIP_VENV (default /opt/matter-emu/chipvenv).
set -uo pipefail
cd "$(dirname "$0")/.."
LAN=./scripts/lan.sh
CHIP_VENV=${CHIP_VENV:-/opt/matter-emu/chipvenv}
WORK=$(mktemp -d /tmp/matter-emu-interop.XXXXXX)
passed=0
failed=0
device_pid=""

summary() { echo "interop: $passed passed, $failed failed"; }
cleanup() {
    [ -n "$device_pid" ] && kill "$device_pid" 2>/dev/null
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

# run_case TYPE METHOD [driver flags...]: a fresh device of TYPE on me-h1, the SDK controller on me-h2.
run_case() {
    local type=$1 method=$2
    shift 2
    local log="$WORK/$type.device.log"
    $LAN exec me-h1 "$EMU" device --type "$type" --state-dir "$WORK/$type" --factory-reset --json \
        --discriminator 3840 --passcode 20202021 >"$log" 2>&1 &
    device_pid=$!
    local i
    for i in $(seq 1 100); do grep -q '"event":"started"' "$log" && break; sleep 0.1; done
    local qr manual
    qr=$(sed -n 's/.*"qrCode":"\(MT:[^"]*\)".*/\1/p' "$log" | head -1)
    manual=$(sed -n 's/.*"manualCode":"\([0-9]*\)".*/\1/p' "$log" | head -1)
    local how=()
    case "$method" in
        qr) how=(--qr "$qr") ;;
        manual) how=(--manual "$manual") ;;
        pin) how=(--passcode 20202021 --discriminator 3840) ;;
    esac
    echo "interop: $type by $method" >&2
    local out
    out=$($LAN exec me-h2 timeout 180 "$CHIP_VENV/bin/python" scripts/interop/chip_driver.py --paa "$PAA" \
        --work "/data/chip-$type-$method" "${how[@]}" "$@" 2>"$WORK/$type.driver.err")
    echo "$out" | sed "s/^/  [$type] /" >&2
    local p f
    p=$(echo "$out" | grep -c '^\[PASS\]')
    f=$(echo "$out" | grep -c '^\[FAIL\]')
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$p" = 0 ] && [ "$f" = 0 ]; then
        failed=$((failed + 1))
        echo "interop: $type: the driver reported nothing; stderr:" >&2
        tail -20 "$WORK/$type.driver.err" >&2
    fi
    if [ "$f" != 0 ]; then
        echo "interop: $type device log (tail):" >&2
        tail -30 "$log" >&2
    fi
    kill "$device_pid" 2>/dev/null
    wait "$device_pid" 2>/dev/null
    device_pid=""
}

run_case dimmable-light qr
run_case on-off-plug manual --no-level
run_case color-temperature-light pin
