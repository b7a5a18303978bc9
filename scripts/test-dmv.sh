#!/usr/bin/env bash
# test-dmv.sh: the data-model conformance suite (root). For every device type that `matter-emu device
# --help` lists, the connectedhomeip SDK's Python controller (scripts/interop/chip_driver.py, venv
# CHIP_VENV) commissions a device on the virtual LAN of scripts/lan.sh and reads every attribute with one
# wildcard path, written as a chip-tool wildcard log; then scripts/interop/dm_check.py, in the venv of
# esp-matter-dm-validator 1.0.5 (DMV_VENV), checks that the validator's parser sees the whole read and
# judges the data model at the Matter version the device reports (BasicInformation.SpecificationVersion),
# one PASS per conformant type, and prints its findings at 1.5 as information.
# Last line: `dmv: N passed, N failed`; exit 1 on any failure.
# Env: CHIP_VENV (default /opt/matter-emu/chipvenv), DMV_VENV (default /opt/matter-emu/dmvenv),
# MATTER_LAN_PREFIX (default me), DMV_INFO_VERSION (default 1.5), DMV_KEEP (a directory: keep the logs there).
set -uo pipefail
cd "$(dirname "$0")/.."
LAN=./scripts/lan.sh
PREFIX=${MATTER_LAN_PREFIX:-me}
CHIP_VENV=${CHIP_VENV:-/opt/matter-emu/chipvenv}
DMV_VENV=${DMV_VENV:-/opt/matter-emu/dmvenv}
INFO_VERSION=${DMV_INFO_VERSION:-1.5}
WORK=$(mktemp -d /tmp/matter-emu-dmv.XXXXXX)
passed=0
failed=0
device_pid=""

summary() { echo "dmv: $passed passed, $failed failed"; }
cleanup() {
    [ -n "$device_pid" ] && kill "$device_pid" 2>/dev/null
    $LAN down >/dev/null 2>&1 || true
    if [ -n "${DMV_KEEP:-}" ]; then mkdir -p "$DMV_KEEP" && cp -r "$WORK"/. "$DMV_KEEP"/; fi
    rm -rf "$WORK"
}
trap 'cleanup; summary; [ "$failed" = 0 ] && [ "$passed" -gt 0 ]; exit $?' EXIT

[ "$(id -u)" = 0 ] || { echo "dmv: needs root (network namespaces)" >&2; failed=1; exit 1; }
if ! "$CHIP_VENV/bin/python" -c 'import chip.ChipDeviceCtrl' 2>/dev/null; then
    echo "dmv: $CHIP_VENV has no SDK controller (run scripts/setup.sh)" >&2; failed=1; exit 1
fi
if ! "$DMV_VENV/bin/python" -c 'import dmv_tool' 2>/dev/null; then
    echo "dmv: creating $DMV_VENV (esp-matter-dm-validator 1.0.5)" >&2
    python3 -m venv "$DMV_VENV" && "$DMV_VENV/bin/pip" install -q esp-matter-dm-validator==1.0.5 >&2 \
        || { echo "dmv: could not install esp-matter-dm-validator" >&2; failed=1; exit 1; }
fi
EMU="$(swift build --show-bin-path)/matter-emu"
[ -x "$EMU" ] || { echo "dmv: build matter-emu first (scripts/setup.sh)" >&2; failed=1; exit 1; }
PAA="$PWD/fixtures/pki/paa-trust-store"
types=$("$EMU" device --help | sed -n 's/^ *--type TYPE *//p' | sed 's/ *(default)//g; s/,/ /g')
[ -n "$types" ] || { echo "dmv: no device types in matter-emu device --help" >&2; failed=1; exit 1; }

$LAN up 2 >&2 || { echo "dmv: lan.sh up failed" >&2; failed=1; exit 1; }

# count OUTPUT: adds its [PASS]/[FAIL] lines to the totals; 1 if it had none.
count() {
    local p f
    p=$(echo "$1" | grep -c '^\[PASS\]')
    f=$(echo "$1" | grep -c '^\[FAIL\]')
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$p" != 0 ] || [ "$f" != 0 ]
}

start=$(date +%s)
for type in $types; do
    log="$WORK/$type.device.log"
    $LAN exec "$PREFIX-h1" "$EMU" device --type "$type" --state-dir "$WORK/$type" --factory-reset --json \
        --discriminator 3840 --passcode 20202021 >"$log" 2>&1 &
    device_pid=$!
    for i in $(seq 1 100); do grep -q '"event":"started"' "$log" && break; sleep 0.1; done
    out=$($LAN exec "$PREFIX-h2" timeout 240 "$CHIP_VENV/bin/python" scripts/interop/chip_driver.py --paa "$PAA" \
        --work "/data/chip-dmv-$type" --passcode 20202021 --discriminator 3840 \
        --wildcard-log "$WORK/$type.wildcard.log" 2>"$WORK/$type.driver.err")
    echo "$out" | sed "s/^/  [$type] /" >&2
    count "$out" || { failed=$((failed + 1)); echo "dmv: $type: the driver reported nothing" >&2; tail -20 "$WORK/$type.driver.err" >&2; }
    kill "$device_pid" 2>/dev/null && wait "$device_pid" 2>/dev/null
    device_pid=""
    if [ ! -s "$WORK/$type.wildcard.log" ]; then
        tail -20 "$log" >&2
        continue
    fi
    out=$("$DMV_VENV/bin/python" scripts/interop/dm_check.py --name "$type" --info-version "$INFO_VERSION" \
        "$WORK/$type.wildcard.log" 2>"$WORK/$type.check.err")
    echo "$out" | sed "s/^/  [$type] /" >&2
    count "$out" || { failed=$((failed + 1)); echo "dmv: $type: the check reported nothing" >&2; tail -20 "$WORK/$type.check.err" >&2; }
done
echo "dmv: $(echo $types | wc -w) device types in $(($(date +%s) - start)) s" >&2
