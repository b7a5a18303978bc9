#!/usr/bin/env bash
# test-browser.sh - the dashboard of `matter-emu fleet --http` in a real browser: headless Chromium
# (Debian's chromium and chromium-driver) driven by Selenium from the venv scripts/setup.sh makes
# (WEB_VENV, default /opt/matter-emu/webvenv). The checks are Swift tests
# (Tests/MatterEmuCLITests/BrowserDashboardTests.swift); scripts/browser/dashboard_driver.py only performs
# page actions. Screenshots are kept in BROWSER_SCREENSHOTS (default: a new temporary directory, printed).
#
# Last line: `browser: N passed, N failed`; exit status non-zero when anything failed. No root needed
# once setup.sh has installed the packages and the venv; loopback only.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/suite.sh
WEB_VENV=${WEB_VENV:-/opt/matter-emu/webvenv}
LOG=$(mktemp "${TMPDIR:-/tmp}/matter-emu-browser.XXXXXX")
trap 'rm -f "$LOG"' EXIT

if ! "$WEB_VENV/bin/python" -c 'import selenium' 2>/dev/null || [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    echo "browser: chromium, chromium-driver or $WEB_VENV (selenium) is missing: run scripts/setup.sh as root" >&2
    echo "browser: 0 passed, 1 failed"
    exit 1
fi
if [ "${SUITE_SKIP_BUILD:-0}" != 1 ]; then
    echo "browser: building (swift build --build-tests)" >&2
    if ! swift build --build-tests -Xswiftc -warnings-as-errors >"$LOG" 2>&1; then
        cat "$LOG" >&2
        echo "browser: 0 passed, 1 failed"
        exit 1
    fi
fi
shots=${BROWSER_SCREENSHOTS:-$(mktemp -d "${TMPDIR:-/tmp}/matter-emu-browser-shots.XXXXXX")}
echo "browser: screenshots in $shots" >&2
MATTER_BROWSER_PYTHON="$WEB_VENV/bin/python" MATTER_BROWSER_SCREENSHOTS="$shots" \
    swift test --skip-build --filter BrowserDashboardTests 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
read -r passed failed < <(suite_count "$LOG")
if [ "$status" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
if [ "$passed" = 0 ] && [ "$failed" = 0 ]; then failed=1; fi  # ran nothing
echo "browser: $passed passed, $failed failed"
[ "$failed" = 0 ]
