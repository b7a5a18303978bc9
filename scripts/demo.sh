#!/usr/bin/env bash
# The main job: a virtual device, commissioned and toggled. The device and commissioner are still
# being built; until they land this runs the onboarding half (the codes a device prints and a
# commissioner parses) and says plainly what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build --show-bin-path)/matter-emu"
[ -x "$bin" ] || { echo "demo: $bin is missing; run scripts/setup.sh first" >&2; exit 1; }

echo "== onboarding codes of a default dimmable light (VID 0xFFF1, PID 0x8002)"
"$bin" payload generate --passcode 20202021 --discriminator 3840 --vendor-id 0xFFF1 --product-id 0x8002
qr=$("$bin" payload generate --passcode 20202021 --discriminator 3840 --vendor-id 0xFFF1 --product-id 0x8002 --json \
    | sed -n 's/.*"qrCode": "\(MT:[^"]*\)".*/\1/p')
echo
echo "== what a commissioner reads from $qr"
"$bin" payload parse "$qr"
echo
echo "demo: 'matter-emu device' and 'matter-emu pairing' are not built yet; commissioning and toggling" >&2
echo "demo: join this script when they land (see README.md, Status)." >&2
