#!/usr/bin/env bash
# lan.sh - a virtual LAN of network namespaces on this machine, for DNS-SD and UDP tests (root only).
#
#   lan.sh up N               create hosts me-h1..me-hN on one Linux bridge and wait for their Avahi
#                             (me is MATTER_LAN_PREFIX's default)
#   lan.sh exec HOST CMD...   run CMD inside HOST (its network namespace and its private /run)
#   lan.sh down               remove everything `up` made (idempotent)
#   lan.sh status             list the hosts, their addresses and the PIDs this script started
#   lan.sh avahi-stop HOST    stop HOST's avahi-daemon (to test clients against a vanishing daemon)
#   lan.sh avahi-start HOST   start it again and wait until it answers
#
# Layout:
#   - namespace me-lan holds the bridge me-br0 (no address, IPv6 off) and one veth end per host;
#   - namespace me-hI holds the other end, named lan0, with 10.213.0.I/24 and an IPv6 link-local;
#   - each host has a "holder" process (sleep) in that namespace plus a private mount namespace with
#     its own tmpfs on /run, in which a system D-Bus and an avahi-daemon run, restricted to lan0 (no
#     reflector, no workstation record, no wide area). `exec` enters that mount namespace, so Avahi
#     clients talk to their host's own daemon.
# Nothing touches the root namespace's interfaces, and no daemon is ever started in the root
# namespace. `down` kills only processes that live in these namespaces, by PID file first.
#
# Env: MATTER_LAN_PREFIX (default me) names the namespaces (PREFIX-lan, PREFIX-h1..), so that two LANs
# with different prefixes can be up at once, each isolated on its own bridge;
# MATTER_LAN_STATE (default /tmp/matter-emu-lan, or /tmp/matter-emu-lan-PREFIX for another prefix)
# holds PID files, configs and logs.
set -euo pipefail

PREFIX=${MATTER_LAN_PREFIX:-me}
[[ "$PREFIX" =~ ^[a-z][a-z0-9]{0,5}$ ]] || { echo "lan.sh: MATTER_LAN_PREFIX must be 1-6 lower-case letters or digits" >&2; exit 1; }
if [ "$PREFIX" = me ]; then
    STATE=${MATTER_LAN_STATE:-/tmp/matter-emu-lan}
else
    STATE=${MATTER_LAN_STATE:-/tmp/matter-emu-lan-$PREFIX}
fi
BRIDGE_NS=$PREFIX-lan
BRIDGE=$PREFIX-br0
IFACE=lan0
SUBNET=10.213.0
MAX_HOSTS=200

die() { echo "lan.sh: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || die "must run as root (it creates network namespaces)"; }
need_tools() {
    local t
    for t in ip nsenter unshare setsid dbus-daemon dbus-send avahi-daemon; do
        command -v "$t" >/dev/null ||
            die "missing $t (apt-get install -y iproute2 util-linux dbus avahi-daemon avahi-utils)"
    done
}
ns_exists() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$1"; }
our_namespaces() { ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$PREFIX-(lan|h[0-9]+)\$" || true; }
our_hosts() { ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$PREFIX-h[0-9]+\$" | sort -V || true; }
ns_inode() { stat -L -c %i "/run/netns/$1" 2>/dev/null || true; }
pid_inode() { stat -L -c %i "/proc/$1/ns/net" 2>/dev/null || true; }

# pid_in_ns PID NS: true when PID is alive and lives in namespace NS (guards against reused PIDs).
pid_in_ns() {
    local ino
    ino=$(ns_inode "$2")
    [ -n "$ino" ] && [ -d "/proc/$1" ] && [ "$(pid_inode "$1")" = "$ino" ]
}

# kill_pids NS PID...: TERM, wait up to 3 s, then KILL whatever of them still lives in NS.
kill_pids() {
    local ns=$1 pid live i
    shift
    live=()
    for pid in "$@"; do pid_in_ns "$pid" "$ns" && live+=("$pid"); done
    ((${#live[@]})) || return 0
    kill -TERM "${live[@]}" 2>/dev/null || true
    for i in $(seq 1 30); do
        local left=()
        for pid in "${live[@]}"; do [ -d "/proc/$pid" ] && left+=("$pid"); done
        ((${#left[@]})) || return 0
        sleep 0.1
    done
    for pid in "${live[@]}"; do pid_in_ns "$pid" "$ns" && kill -KILL "$pid" 2>/dev/null || true; done
    for i in $(seq 1 20); do
        local left=()
        for pid in "${live[@]}"; do [ -d "/proc/$pid" ] && left+=("$pid"); done
        ((${#left[@]})) || return 0
        sleep 0.1
    done
}

holder_pid() { # HOST -> PID of the holder, or fail
    local pid
    pid=$(cat "$STATE/$1.holder.pid" 2>/dev/null) || die "$1 is not up (run: lan.sh up N)"
    pid_in_ns "$pid" "$1" || die "$1's holder (PID $pid) is gone; run lan.sh down, then up"
    echo "$pid"
}

in_host() { # HOST CMD... (no cwd change)
    local pid
    pid=$(holder_pid "$1")
    shift
    nsenter -t "$pid" -m -n -- "$@"
}

# Waits until HOST's avahi-daemon answers on HOST's D-Bus with state S_RUNNING (2).
wait_avahi() {
    local i
    for i in $(seq 1 150); do
        if in_host "$1" dbus-send --system --print-reply --reply-timeout=1000 --dest=org.freedesktop.Avahi / \
            org.freedesktop.Avahi.Server.GetState 2>/dev/null | grep -q 'int32 2'; then
            return 0
        fi
        sleep 0.1
    done
    echo "lan.sh: avahi-daemon in $1 did not answer within 15 s; its log:" >&2
    cat "$STATE/$1.avahi.log" >&2 2>/dev/null || true
    return 1
}

start_avahi() { # HOST
    local host=$1 holder pid i
    holder=$(holder_pid "$host")
    nsenter -t "$holder" -m -n -- rm -f /run/avahi-daemon/pid
    # In the foreground (no -D) under setsid: nsenter and setsid exec() in place, so $! is the daemon.
    setsid nsenter -t "$holder" -m -n -- avahi-daemon -f /run/matter-lan/avahi-daemon.conf \
        --no-drop-root --no-chroot --no-rlimits >>"$STATE/$host.avahi.log" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$STATE/$host.avahi.pid"
    wait_avahi "$host"
}

stop_avahi() { # HOST
    local host=$1 pid
    pid=$(cat "$STATE/$host.avahi.pid" 2>/dev/null) || return 0
    kill_pids "$host" "$pid"
    rm -f "$STATE/$host.avahi.pid"
}

cmd_up() {
    need_root
    need_tools
    local n=${1:-}
    [[ "$n" =~ ^[0-9]+$ ]] && ((n >= 1 && n <= MAX_HOSTS)) || die "usage: lan.sh up N (1..$MAX_HOSTS hosts)"
    [ -z "$(our_namespaces)" ] || die "a LAN is already up ($(our_namespaces | tr '\n' ' ')); run lan.sh down first"
    mkdir -p "$STATE"
    rm -f "$STATE"/*.pid "$STATE"/*.log "$STATE"/holder.sh
    trap 'echo "lan.sh: up failed; cleaning up" >&2; cmd_down >/dev/null 2>&1 || true' ERR

    # The bridge, in its own namespace: no address, IPv6 off, no STP delay, no multicast snooping
    # (mDNS must be flooded to every port).
    ip netns add "$BRIDGE_NS"
    ip netns exec "$BRIDGE_NS" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
    ip -n "$BRIDGE_NS" link add "$BRIDGE" type bridge stp_state 0 forward_delay 0 mcast_snooping 0
    ip -n "$BRIDGE_NS" link set "$BRIDGE" up

    local i host
    for i in $(seq 1 "$n"); do
        host=$PREFIX-h$i
        ip netns add "$host"
        ip netns exec "$host" sysctl -qw net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.default.disable_ipv6=0
        # Created inside the bridge namespace with the peer placed straight into the host's.
        ip -n "$BRIDGE_NS" link add "$PREFIX-p$i" type veth peer name "$IFACE" netns "$host"
        ip -n "$BRIDGE_NS" link set "$PREFIX-p$i" master "$BRIDGE" up
        ip -n "$host" link set lo up
        ip -n "$host" addr add "$SUBNET.$i/24" dev "$IFACE"
        ip -n "$host" link set "$IFACE" up multicast on
    done

    # IPv6 duplicate address detection must finish before link-local addresses are usable.
    local tries tentative
    for tries in $(seq 1 100); do
        tentative=0
        for host in $(our_hosts); do
            ip -n "$host" -6 addr show dev "$IFACE" | grep -q tentative && tentative=1
            ip -n "$host" -6 addr show dev "$IFACE" scope link | grep -q inet6 || tentative=1
        done
        [ "$tentative" = 0 ] && break
        sleep 0.1
    done
    [ "$tentative" = 0 ] || die "IPv6 link-local addresses did not become usable"

    # The holder: runs inside `ip netns exec HOST unshare --mount`, gives the host a private /run,
    # starts its system D-Bus, then sleeps forever. Avahi is started through `exec` afterwards.
    cat >"$STATE/holder.sh" <<'EOF'
#!/usr/bin/env bash
set -eu
host=$1 iface=$2 state=$3
mount -t tmpfs -o mode=755 tmpfs /run
# A private /data too: the connectedhomeip Python controller keeps its storage there (hard-wired).
[ -d /data ] || mkdir -p /data
mount -t tmpfs -o mode=755 tmpfs /data
mkdir -p /run/dbus /run/avahi-daemon /run/lock /run/matter-lan
cat >/run/matter-lan/avahi-daemon.conf <<CONF
[server]
host-name=$host
domain-name=local
use-ipv4=yes
use-ipv6=yes
allow-interfaces=$iface
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000
# Room for fleets (scripts/bench.sh runs 1,000 devices on one host and browses them from another):
# each commissionable device is about 8 records (PTR, subtype PTRs, SRV, TXT) in every host's cache,
# which holds 4096 by default, so a browser would see only about 500; one entry group per device,
# and a resolver per instance and address family, count against 1024 objects per D-Bus client.
cache-entries-max=65536
objects-per-client-max=16384
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
[reflector]
enable-reflector=no
[rlimits]
CONF
dbus-daemon --system --fork --print-pid >"$state/$host.dbus.pid"
echo ready >"$state/$host.ready"
exec sleep infinity
EOF
    chmod +x "$STATE/holder.sh"

    for host in $(our_hosts); do
        rm -f "$STATE/$host.ready"
        # setsid, ip netns exec and unshare all exec() in place: $! is the holder's final PID.
        setsid ip netns exec "$host" unshare --mount --propagation private -- \
            bash "$STATE/holder.sh" "$host" "$IFACE" "$STATE" >"$STATE/$host.holder.log" 2>&1 </dev/null &
        echo $! >"$STATE/$host.holder.pid"
    done
    for host in $(our_hosts); do
        for tries in $(seq 1 100); do
            [ -f "$STATE/$host.ready" ] && break
            sleep 0.1
        done
        [ -f "$STATE/$host.ready" ] || { cat "$STATE/$host.holder.log" >&2; die "$host: holder did not start"; }
    done
    for host in $(our_hosts); do start_avahi "$host"; done
    trap - ERR
    echo "lan.sh: up: $n host(s) on bridge $BRIDGE (namespace $BRIDGE_NS); state in $STATE" >&2
    cmd_status
}

cmd_down() {
    need_root
    local ns pids pid
    for ns in $(our_hosts); do
        pids=()
        for f in avahi dbus holder; do
            pid=$(cat "$STATE/$ns.$f.pid" 2>/dev/null) || continue
            pids+=("$pid")
        done
        ((${#pids[@]} == 0)) || kill_pids "$ns" "${pids[@]}"
        # Whatever is left in the namespace was started through `lan.sh exec` (tests, probes).
        mapfile -t pids < <(ip netns pids "$ns" 2>/dev/null)
        ((${#pids[@]} == 0)) || kill_pids "$ns" "${pids[@]}"
        ip netns del "$ns"
    done
    if ns_exists "$BRIDGE_NS"; then
        mapfile -t pids < <(ip netns pids "$BRIDGE_NS" 2>/dev/null)
        ((${#pids[@]} == 0)) || kill_pids "$BRIDGE_NS" "${pids[@]}"
        ip netns del "$BRIDGE_NS"
    fi
    rm -f "$STATE"/*.pid "$STATE"/*.ready
    local left
    left=$(our_namespaces)
    [ -z "$left" ] || die "down: namespaces still present: $left"
    echo "lan.sh: down" >&2
}

cmd_status() {
    local host
    [ -n "$(our_namespaces)" ] || { echo "lan.sh: no LAN is up"; return 0; }
    for host in $(our_hosts); do
        printf '%s holder=%s dbus=%s avahi=%s ' "$host" \
            "$(cat "$STATE/$host.holder.pid" 2>/dev/null || echo -)" \
            "$(cat "$STATE/$host.dbus.pid" 2>/dev/null || echo -)" \
            "$(cat "$STATE/$host.avahi.pid" 2>/dev/null || echo -)"
        ip -n "$host" -br addr show dev "$IFACE" | tr -s ' '
    done
}

cmd_exec() {
    need_root
    local host=${1:-}
    [ -n "$host" ] && [ $# -ge 2 ] || die "usage: lan.sh exec HOST CMD..."
    shift
    local pid
    pid=$(holder_pid "$host")
    exec nsenter -t "$pid" -m -n --wd="$PWD" -- "$@"
}

case ${1:-} in
up) shift; cmd_up "$@" ;;
down) cmd_down ;;
exec) shift; cmd_exec "$@" ;;
status) cmd_status ;;
avahi-stop) need_root; [ -n "${2:-}" ] || die "usage: lan.sh avahi-stop HOST"; holder_pid "$2" >/dev/null; stop_avahi "$2" ;;
avahi-start) need_root; [ -n "${2:-}" ] || die "usage: lan.sh avahi-start HOST"; holder_pid "$2" >/dev/null; start_avahi "$2" ;;
*) die "usage: lan.sh up N | down | exec HOST CMD... | status | avahi-stop HOST | avahi-start HOST" ;;
esac
