#!/usr/bin/env bash
# bench-shard.sh - the per-pod figures of docs/SCALE-OUT.md: one fleet shard as a pod runs it
# (`matter-emu fleet --shard 0/SHARDS --mdns embedded`, release build), on host 1 of a fresh virtual LAN of
# scripts/lan.sh (prefix shard, 2 hosts, root), browsed from host 2 through its Avahi from before the
# shard starts. Prints, one `figure` line each (id, value, unit):
#   shard-ready-s          process start until the shard printed its rows (every device started)
#   shard-cpu-start-s      CPU time (user + system) the shard used until then
#   shard-cpu-idle-percent CPU the shard used in the 10 s after host 2's browse ended (% of one core)
#   shard-rss-ready-mib    resident memory then; shard-rss-resolved-mib once host 2 resolved every device
#   shard-resolved-s       process start until host 2's Avahi resolved every device (matter-emu-bench lan-browse;
#                          150 when some never were, within its 150 s); -half-s, -95-s, -99-s: half, 95 %, 99 % of them
#   shard-commission-s     one device commissioned from host 2 by its computed QR code (`fleet codes`), then
#                          toggled
#
#   scripts/bench-shard.sh [COUNT]     COUNT devices in the shard (default 1000)
#
# Env: MATTER_LAN_PREFIX (default shard); BENCH_SKIP_BUILD=1 uses the release binaries as they are;
# BROWSE=embedded browses with matter-emu's embedded querier on host 2 instead of its Avahi.
# Host 1 runs no avahi-daemon, as a pod has none; with BROWSE=embedded host 2 runs none either. The hosts of
# the virtual LAN share this machine's cores: an avahi-daemon that nothing asks for still receives every
# record of the fleet and files it at O(n^2) cost (perf: avahi_unescape_label, strcasecmp), a whole core
# for 10,000 devices, taken from the shard and the browser. AVAHI_EVERYWHERE=1 keeps both daemons.
# Nothing leaves the machine: the shard and the browser live in the LAN's namespaces.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
shards=4
seed=7
[ "$(id -u)" = 0 ] || { echo "bench-shard: needs root (network namespaces)" >&2; exit 1; }
export MATTER_LAN_PREFIX=${MATTER_LAN_PREFIX:-shard}
LAN=./scripts/lan.sh
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
    for product in matter-emu matter-emu-bench; do
        swift build -c release --product "$product" -Xswiftc -warnings-as-errors 2>&1 \
            | grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Linking|Write|Planning|Applying)' >&2
    done
fi
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d /tmp/matter-emu-bench-shard.XXXXXX)
fleet_pid=
cleanup() {
    if [ -n "$fleet_pid" ] && [ -d "/proc/$fleet_pid" ]; then kill -TERM "$fleet_pid" 2>/dev/null || true; fi
    $LAN down >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
h1=$MATTER_LAN_PREFIX-h1
h2=$MATTER_LAN_PREFIX-h2
$LAN down >/dev/null 2>&1 || true
$LAN up 2 >"$work/lan.log" 2>&1 || { cat "$work/lan.log" >&2; exit 1; }
if [ "${AVAHI_EVERYWHERE:-0}" != 1 ]; then
    $LAN avahi-stop "$h1"
    [ "${BROWSE:-avahi}" != embedded ] || $LAN avahi-stop "$h2"
fi

now() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }

# Host 2 browses from before the shard starts (the start time is read from the file when it ends).
echo "{\"start\": $(now)}" >"$work/start.json"
$LAN exec "$h2" "$bin/matter-emu-bench" lan-browse --expect "$count" --start-file "$work/start.json" \
    --timeout 150 --fleet-mdns embedded --mdns "${BROWSE:-avahi}" >"$work/browse.out" 2>"$work/browse.log" &
browse=$!
sleep 1
start=$(now)
echo "{\"start\": $start}" >"$work/start.json"
$LAN exec "$h1" sh -c 'echo $$ >"$0"; exec "$@"' "$work/fleet.pid" "$bin/matter-emu" fleet \
    --shard "0/$shards" --seed "$seed" --count "$count" --shard-ports same --mdns embedded \
    --state-dir "$work/state" --json >"$work/fleet.out" 2>"$work/fleet.log" &
for _ in $(seq 1 100); do [ -s "$work/fleet.pid" ] && break; sleep 0.05; done
fleet_pid=$(cat "$work/fleet.pid")
until grep -q '"devices"' "$work/fleet.out" 2>/dev/null; do
    [ -d "/proc/$fleet_pid" ] || { cat "$work/fleet.log" >&2; echo "bench-shard: the shard exited" >&2; exit 1; }
    sleep 0.02
done
ready=$(now)
cpu=$(cpu_s "$fleet_pid")
rss_ready=$(rss_kib "$fleet_pid")
wait "$browse" || true
rss_resolved=$(rss_kib "$fleet_pid")
# CPU while nobody asks: 10 s after the browse ended.
idle_from=$(cpu_s "$fleet_pid")
sleep 10
idle=$(awk -v a="$idle_from" -v b="$(cpu_s "$fleet_pid")" 'BEGIN { printf "%.1f", (b - a) / 10 * 100 }')
cat "$work/browse.out" >&2
resolved=$(awk -F'\t' '$1 == "figure" && $2 ~ /^lan-fleet-advertised-/ { print $4 }' "$work/browse.out" | tail -1)
milliseconds() { sed -n "s/.*[, ]$1 after \([0-9.]*\) ms.*/\1/p" "$work/browse.out" | tail -1; }
seconds() { awk -v ms="$1" 'BEGIN { if (ms == "") print "never"; else printf "%.2f", ms / 1000 }'; }
half=$(seconds "$(milliseconds half)")
p95=$(seconds "$(milliseconds '95 %')")
p99=$(seconds "$(milliseconds '99 %')")
seen=$(sed -n 's/.*: \([0-9]*\) of [0-9]* commissionable instances resolved.*/\1/p' "$work/browse.out" | tail -1)

# One device commissioned from host 2 by its computed QR code (not asked of the shard), then toggled.
qr=$("$bin/matter-emu" fleet codes --shards "$shards" --seed "$seed" --count "$count" --shard-ports same --shard 0 \
    --json | python3 -c 'import json, sys; d = json.load(sys.stdin)["devices"]; print(d[len(d) // 2]["qrCode"])')
begin=$(now)
if $LAN exec "$h2" "$bin/matter-emu" pairing code 1 "$qr" --mdns "${BROWSE:-avahi}" --state-dir "$work/controller" \
    >"$work/pair.log" 2>&1 &&
    $LAN exec "$h2" "$bin/matter-emu" onoff toggle 1 1 --mdns "${BROWSE:-avahi}" --state-dir "$work/controller" \
        >>"$work/pair.log" 2>&1; then
    commission=$(minus "$(now)" "$begin")
else
    cat "$work/pair.log" >&2
    commission=failed
fi

echo "bench-shard: a shard of $count (--mdns embedded), $seen of $count resolved from host 2" >&2

printf 'figure\tshard-ready-s\t%s\ts\n' "$(minus "$ready" "$start")"
printf 'figure\tshard-cpu-start-s\t%s\ts\n' "$cpu"
printf 'figure\tshard-cpu-idle-percent\t%s\t%%\n' "$idle"
printf 'figure\tshard-rss-ready-mib\t%s\tMiB\n' "$(awk -v k="$rss_ready" 'BEGIN { printf "%.1f", k / 1024 }')"
printf 'figure\tshard-rss-resolved-mib\t%s\tMiB\n' "$(awk -v k="$rss_resolved" 'BEGIN { printf "%.1f", k / 1024 }')"
printf 'figure\tshard-resolved-half-s\t%s\ts\n' "$half"
printf 'figure\tshard-resolved-95-s\t%s\ts\n' "$p95"
printf 'figure\tshard-resolved-99-s\t%s\ts\n' "$p99"
printf 'figure\tshard-resolved-s\t%s\ts\n' "${resolved:-never}"
printf 'figure\tshard-commission-s\t%s\ts\n' "$commission"
