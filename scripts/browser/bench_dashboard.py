#!/usr/bin/env python3
"""Measures the dashboard of a running fleet for scripts/bench.sh (headless Chromium, as the browser
suite): /metrics answer times, the page's load until it is usable, and how long a change made by our
controller (a new `matter-emu onoff toggle` process) takes to show on the page. Prints the bench's
`figure` lines (tab separated: figure, id, label, median, tail, tail name, unit) and raw lines.

  bench_dashboard.py URL --emu BIN --state-dir DIR --node N --device I [--runs R] [--metrics-runs M]

The fleet's device I must be commissioned as node N in the controller state DIR, with OnOff on
endpoint 1. Nothing here decides pass or fail: these are figures.
"""
import argparse
import statistics
import subprocess
import time
import urllib.request

from dashboard_driver import start as browser


def pick(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int((len(ordered) - 1) * p + 0.5))]


def figure(ident, label, values, tail_name, tail):
    print("figure\t%s\t%s\t%.1f\t%.1f\t%s\tms" % (ident, label, statistics.median(values), tail, tail_name), flush=True)


# True once the page lists its rows and its event stream is live: a person can read and act.
USABLE = ("return document.getElementById('connection').textContent === 'live'"
          " && document.querySelectorAll('#devices tr').length > 0;")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--emu", required=True)
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--node", required=True)
    parser.add_argument("--device", type=int, required=True)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--metrics-runs", type=int, default=50)
    parser.add_argument("--count", type=int, required=True, help="the fleet's size, for the labels")
    args = parser.parse_args()
    base = args.url.rstrip("/")

    metrics = []
    size = 0
    for _ in range(args.metrics_runs):
        start = time.monotonic()
        with urllib.request.urlopen(base + "/metrics") as answer:
            size = len(answer.read())
        metrics.append((time.monotonic() - start) * 1000)
    figure("http-metrics-%d" % args.count, "/metrics of a fleet of %d (%d requests, %d bytes)"
           % (args.count, args.metrics_runs, size), metrics, "p95", pick(metrics, 0.95))

    driver = browser()
    try:
        loads = []
        for _ in range(args.runs):
            driver.get("about:blank")
            start = time.monotonic()
            driver.get(base + "/")
            while not driver.execute_script(USABLE):
                if time.monotonic() - start > 60:
                    raise SystemExit("the page never became usable")
                time.sleep(0.01)
            loads.append((time.monotonic() - start) * 1000)
        figure("dashboard-usable-%d" % args.count,
               "dashboard of a fleet of %d: load until rows are shown and the stream is live (%d loads)"
               % (args.count, args.runs), loads, "max", max(loads))

        cell = ("var b = document.querySelector('#device-%d [data-attribute=\"OnOff.OnOff\"] b');"
                " return b ? b.textContent : null;" % args.device)
        changes = []
        cli = []
        for _ in range(args.runs):
            before = driver.execute_script(cell)
            start = time.monotonic()
            process = subprocess.Popen([args.emu, "onoff", "toggle", args.node, "--state-dir", args.state_dir],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while driver.execute_script(cell) == before:
                if time.monotonic() - start > 30:
                    raise SystemExit("the controller's change never showed on the page")
                time.sleep(0.005)
            changes.append((time.monotonic() - start) * 1000)
            process.wait()
            cli.append((time.monotonic() - start) * 1000)
            if process.returncode != 0:
                raise SystemExit("matter-emu onoff toggle exited %d" % process.returncode)
        figure("dashboard-controller-change",
               "a controller's change shown on the page: matter-emu onoff toggle started to the page showing it (%d)"
               % args.runs, changes, "p95", pick(changes, 0.95))
        print("dashboard: the toggle processes ran %.0f ms (median, start to exit) beside it" % statistics.median(cli),
              flush=True)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
