#!/usr/bin/env bash
# The main job: a virtual dimmable light, commissioned by matter-emu's commissioner and toggled.
# As root it runs on a two-host virtual LAN (scripts/lan.sh): the device publishes through Avahi on
# one host, the commissioner finds it by its QR code from the other. Without root it runs on
# loopback with a direct address. Everything it starts is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build --show-bin-path)/matter-emu"
[ -x "$bin" ] || { echo "demo: $bin is missing; run scripts/setup.sh first" >&2; exit 1; }
work=$(mktemp -d /tmp/matter-emu-demo.XXXXXX)
device_pid=""
lan=0
cleanup() {
    [ -n "$device_pid" ] && kill "$device_pid" 2>/dev/null && wait "$device_pid" 2>/dev/null || true
    [ "$lan" = 1 ] && scripts/lan.sh down >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

on_device=()
on_controller=()
address=()
if [ "$(id -u)" = 0 ] && scripts/lan.sh up 2 >"$work/lan.log" 2>&1; then
    lan=1
    on_device=(scripts/lan.sh exec me-h1)
    on_controller=(scripts/lan.sh exec me-h2)
    echo "== a virtual LAN: me-h1 runs the device, me-h2 the commissioner (Avahi on both)"
else
    echo "== no virtual LAN (needs root): device and commissioner on loopback, direct address"
    address=(--address "[::1]:5540")
fi

echo "== matter-emu device --type dimmable-light"
"${on_device[@]}" "$bin" device --type dimmable-light --state-dir "$work/device" --factory-reset \
    --name "Demo lamp" >"$work/device.log" 2>&1 &
device_pid=$!
for _ in $(seq 1 100); do grep -q "^QR code payload" "$work/device.log" && break; sleep 0.1; done
qr=$(sed -n 's/^QR code payload *\(MT:[^ ]*\)$/\1/p' "$work/device.log")
grep -E "^(QR code payload|Manual code|Device)" "$work/device.log"
[ -n "$qr" ] || { echo "demo: the device did not start" >&2; cat "$work/device.log" >&2; exit 1; }

ctl() { "${on_controller[@]}" "$bin" "$@" --state-dir "$work/controller"; }
echo
echo "== matter-emu pairing code 1 $qr --name lamp"
ctl pairing code 1 "$qr" --name lamp "${address[@]}"
echo
echo "== matter-emu onoff toggle lamp; then read it back"
ctl onoff toggle lamp "${address[@]}"
ctl onoff read on-off lamp "${address[@]}"
ctl onoff toggle lamp "${address[@]}"
ctl onoff read on-off lamp "${address[@]}"
echo
echo "== matter-emu levelcontrol move-to-level-with-on-off 128 0 0 0 lamp"
ctl levelcontrol move-to-level-with-on-off 128 0 0 0 lamp "${address[@]}"
ctl levelcontrol read current-level lamp "${address[@]}"
echo
echo "== what the device logged"
sed -n '/^Device/,$p' "$work/device.log" | tail -n +2
echo
echo "demo: done"
