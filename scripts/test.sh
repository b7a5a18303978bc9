#!/usr/bin/env bash
# Builds and runs every test suite of matter-emu; exits non-zero on any failure. The last line is
# the test runner's own summary.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "test: building (warnings are errors)" >&2
swift build --build-tests -Xswiftc -warnings-as-errors 2>&1 \
    | grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Linking|Write|Planning|Applying)' >&2

echo "test: unit and loopback suites" >&2
swift test --skip-build
