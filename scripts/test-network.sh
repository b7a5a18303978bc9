#!/usr/bin/env bash
# test-network.sh - MatterDiscovery end to end over real Avahi daemons on the virtual LAN of
# scripts/lan.sh (3 hosts, run as root). Services are published by matter-dnssd-probe inside one host
# and browsed/resolved from the others, with each filter; updates, withdrawal, name collisions, a
# daemon restart and 200 services from one process are checked; `avahi-browse` cross-checks subtypes
# and TXT keys. The LAN is always torn down (trap), and the teardown itself is checked.
#
# Last line: `network: N passed, N failed`; exit status non-zero when anything failed.
# Env: MATTER_LAN_PREFIX and MATTER_LAN_STATE as for lan.sh (hosts PREFIX-h1..3, default me);
# NETWORK_TEST_VERBOSE=1 echoes probe output on failures.
set -uo pipefail
cd "$(dirname "$0")/.."

LAN=./scripts/lan.sh
LP=${MATTER_LAN_PREFIX:-me}
if [ "$LP" = me ]; then STATE=${MATTER_LAN_STATE:-/tmp/matter-emu-lan}; else STATE=${MATTER_LAN_STATE:-/tmp/matter-emu-lan-$LP}; fi
passed=0
failed=0
WORK=""
PROBE=""
lan_is_up=0
summary_done=0
probe_pids=()
daemon_pids=()

ok() { passed=$((passed + 1)); echo "network: ok   $1" >&2; }
bad() { failed=$((failed + 1)); echo "network: FAIL $1" >&2; }
check() { # NAME CMD... : passes when CMD succeeds
    local name=$1
    shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}

summary() {
    [ "$summary_done" = 1 ] && return
    summary_done=1
    echo "network: $passed passed, $failed failed"
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    exec 3>&- 4>&- 5>&- 6>&- 2>/dev/null
    if [ "$lan_is_up" = 1 ]; then
        $LAN down >/dev/null 2>&1 || true
    fi
    [ -n "$WORK" ] && rm -rf "$WORK"
    if [ "$summary_done" = 0 ]; then
        [ "$status" = 0 ] || [ "$failed" -gt 0 ] || failed=$((failed + 1))
        summary
    fi
    [ "$failed" = 0 ] && exit 0
    exit 1
}
trap cleanup EXIT
trap 'bad "interrupted"; exit 1' INT TERM

# --- helpers ---------------------------------------------------------------------------------------

# wait_for FILE REGEX SECONDS: polls FILE until a line matches.
wait_for() {
    local i
    for i in $(seq 1 $(($3 * 10))); do
        grep -qE "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    [ "${NETWORK_TEST_VERBOSE:-0}" = 1 ] && { echo "--- $1:" >&2; cat "$1" >&2; }
    return 1
}

# start_probe NAME HOST ARGS...: runs `probe publish ARGS` in HOST, commands on fd from a FIFO.
start_probe() {
    local name=$1 host=$2
    shift 2
    mkfifo "$WORK/$name.in"
    $LAN exec "$host" "$PROBE" publish "$@" <"$WORK/$name.in" >"$WORK/$name.out" 2>&1 &
    probe_pids+=($!)
}

browse() { # HOST ARGS... -> probe output on stdout
    local host=$1
    shift
    $LAN exec "$host" "$PROBE" browse "$@" 2>&1
}

# browse_has HOST "EXPECTED NAMES" "UNEXPECTED NAMES" ARGS...: each expected instance listed, no
# unexpected one, and the count matches.
browse_has() {
    local host=$1 want=$2 dont=$3 out n
    shift 3
    out=$(browse "$host" "$@")
    for n in $want; do grep -q "^commissionable $n \|^operational $n " <<<"$out" || { echo "$out" >&2; return 1; }; done
    for n in $dont; do ! grep -q " $n " <<<"$out" || { echo "$out" >&2; return 1; }; done
    grep -qx "found $(wc -w <<<"$want")" <<<"$out" || { echo "$out" >&2; return 1; }
}

# eventually SECONDS CMD...: retries CMD (1 s apart) until it succeeds; for cache expiry after goodbyes.
eventually() {
    local deadline=$(($(date +%s) + $1))
    shift
    while :; do
        "$@" 2>/dev/null && return 0
        [ "$(date +%s)" -ge "$deadline" ] && return 1
        sleep 1
    done
}

gone_from() { # HOST NAME ARGS...: the browse does not list NAME
    local host=$1 name=$2
    shift 2
    ! browse "$host" "$@" | grep -q " $name "
}

line_of() { grep -E "$2" "$1" | head -1; }

name_of() { # NAME FD: the probe's current instance name
    echo names >&"$2"
    wait_for "$WORK/$1.out" '^names done' 10 || return 1
    tail -n 20 "$WORK/$1.out" | grep '^name ' | tail -1 | awk '{print $2}'
}

shows() { # HOST REGEX ARGS...: the browse output has a line matching REGEX
    local host=$1 regex=$2
    shift 2
    browse "$host" "$@" | grep -qE -- "$regex"
}

avahi_lists() { # HOST TYPE NAME: `avahi-browse -pt TYPE` in HOST lists instance NAME
    $LAN exec "$1" avahi-browse -pt "$2" 2>/dev/null | grep -q ";$3;"
}

no_daemon_in() { # HOST: the probe's `check` exits 3 with the one-line message
    local out rc
    out=$($LAN exec "$1" timeout 10 "$PROBE" check 2>&1)
    rc=$?
    [ "$rc" = 3 ] && grep -q "no Avahi daemon reachable (is avahi-daemon running?); use --address HOST:PORT" <<<"$out"
}

# --- prerequisites ---------------------------------------------------------------------------------

if [ "$(id -u)" != 0 ]; then
    bad "needs root (network namespaces): run as root"
    exit 1
fi
WORK=$(mktemp -d /tmp/matter-emu-nettest.XXXXXX)

echo "network: building matter-dnssd-probe" >&2
if ! swift build --product matter-dnssd-probe -Xswiftc -warnings-as-errors >"$WORK/build.log" 2>&1; then
    cat "$WORK/build.log" >&2
    bad "build matter-dnssd-probe"
    exit 1
fi
PROBE="$(swift build --show-bin-path)/matter-dnssd-probe"

# --- the root namespace has no daemon: the typed error, at once -------------------------------------

if [ ! -S /run/dbus/system_bus_socket ]; then
    out=$(timeout 10 "$PROBE" check 2>&1)
    rc=$?
    check "root namespace: no daemon -> exit 3 with the one-line message" \
        test "$rc" = 3 -a "$out" = "matter-dnssd-probe: no Avahi daemon reachable (is avahi-daemon running?); use --address HOST:PORT"
fi

# --- LAN -------------------------------------------------------------------------------------------

lan_is_up=1
if ! $LAN up 3 >"$WORK/lan-up.log" 2>&1; then
    cat "$WORK/lan-up.log" >&2
    bad "lan.sh up 3"
    exit 1
fi
ok "lan.sh up 3 (three hosts with their own avahi-daemon)"

# A: the full-featured node on h1 (commissionable + operational); B: a different node on h1.
CFID=87E1B004E235A130
NODE=8FC7772401CD0696
OPNAME=$CFID-$NODE
start_probe a $LP-h1 --discriminator 3840 --vendor 65521 --product 32769 --device-type 257 --cm 1 --name Light \
    --ph 33 --sii 5000 --sai 300 --sat 4000 --tcp 4 --operational "$OPNAME"
exec 3>"$WORK/a.in"
# B takes the probing path (--probe: Avahi services), so every browse check below covers both paths.
start_probe b $LP-h1 --discriminator 1234 --vendor 65522 --device-type 266 --cm 0 --probe
exec 4>"$WORK/b.in"
if ! wait_for "$WORK/a.out" '^ready' 30 || ! wait_for "$WORK/b.out" '^ready' 30; then
    cat "$WORK/a.out" "$WORK/b.out" >&2
    bad "publish on $LP-h1"
    exit 1
fi
A=$(line_of "$WORK/a.out" '^established commissionable' | awk '{print $3}')
B=$(line_of "$WORK/b.out" '^established commissionable' | awk '{print $3}')
check "publish: commissionable instance names are 16 upper-case hex digits ($A, $B)" \
    bash -c "[[ '$A' =~ ^[0-9A-F]{16}\$ && '$B' =~ ^[0-9A-F]{16}\$ ]]"
check "publish: operational instance is <CFID>-<NODE>" grep -qE "^established operational $OPNAME " "$WORK/a.out"

# Raw records skip the probe phase: Avahi reports A's entry group ESTABLISHED before the probes of
# the SRV copy that guards against conflicts have finished (an order of two events of one daemon,
# not a timing). The times are informative (scripts/bench.sh measures them).
line_no() { grep -nE "$2" "$1" | head -1 | cut -d: -f1; }
before() { # FILE REGEX1 REGEX2: a line matching REGEX1 comes before one matching REGEX2
    local a b
    a=$(line_no "$1" "$2") b=$(line_no "$1" "$3")
    [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}
check "raw records: commissionable group established before the probe phase ended" \
    before "$WORK/a.out" "^established commissionable $A " "^conflict-checked $A "
check "raw records: operational group established before the probe phase ended" \
    before "$WORK/a.out" "^established operational $OPNAME " "^conflict-checked $OPNAME "
echo "network: info  raw: $(grep -E '^(established|conflict-checked)' "$WORK/a.out" | tr '\n' ';')" >&2
echo "network: info  --probe: $(grep -E '^established' "$WORK/b.out" | tr '\n' ';')" >&2

# --- browse and resolve from another host, each filter ---------------------------------------------

T=(--timeout 2)
check "browse any (from $LP-h2): both nodes" browse_has $LP-h2 "$A $B" "" commissionable "${T[@]}"
check "filter long discriminator 3840" browse_has $LP-h2 "$A" "$B" commissionable --long 3840 "${T[@]}"
check "filter long discriminator 1234" browse_has $LP-h2 "$B" "$A" commissionable --long 1234 "${T[@]}"
check "filter short discriminator 15" browse_has $LP-h2 "$A" "$B" commissionable --short 15 "${T[@]}"
check "filter short discriminator 4" browse_has $LP-h2 "$B" "$A" commissionable --short 4 "${T[@]}"
check "filter vendor 65521" browse_has $LP-h2 "$A" "$B" commissionable --vendor 65521 "${T[@]}"
check "filter device type 257" browse_has $LP-h2 "$A" "$B" commissionable --device-type 257 "${T[@]}"
check "filter commissioning mode (_CM)" browse_has $LP-h2 "$A" "$B" commissionable --cm-open "${T[@]}"
check "filter instance name (lower case)" browse_has $LP-h2 "$A" "$B" commissionable \
    --instance "$(tr 'A-F' 'a-f' <<<"$A")" "${T[@]}"

out=$(browse $LP-h3 commissionable --instance "$A" --limit 1 --timeout 10)
check "resolve: TXT parsed (D, CM, VP, DT) and port" \
    grep -q "^commissionable $A host=$LP-h1.local port=5540 D=3840 CM=1 VP=65521+32769 DT=257 " <<<"$out"
check "resolve: IPv4 address of $LP-h1" grep -qE "addresses=.*\b10\.213\.0\.1\b" <<<"$out"
check "resolve: IPv6 link-local address keeps its interface index" \
    grep -qE "addresses=(.*,)?fe80::[0-9a-f:]+%[1-9][0-9]*(,|$)" <<<"$out"

out=$(browse $LP-h3 operational --node "$OPNAME" --limit 1 --timeout 10)
check "resolve operational node (from $LP-h3): port and MRP keys" \
    grep -q "^operational $OPNAME host=$LP-h1.local port=5540 SII=5000 SAI=300 " <<<"$out"
check "browse operational by fabric (_I subtype)" browse_has $LP-h3 "$OPNAME" "" operational --fabric "0x$CFID" "${T[@]}"

# --- the CLI: matter-emu discover on another host ---------------------------------------------------
EMU="$(swift build --show-bin-path)/matter-emu"
out=$($LAN exec $LP-h3 "$EMU" discover commissionable --discriminator 3840 --vendor-id 0xFFF1 --timeout 3 --json 2>&1)
check "matter-emu discover --discriminator 3840 --vendor-id (from $LP-h3): only node A, with its fields" \
    bash -c 'grep -q "\"instance\": \"$1\"" <<<"$3" && ! grep -q "\"instance\": \"$2\"" <<<"$3" \
        && grep -q "\"discriminator\": 3840" <<<"$3" && grep -q "10.213.0.1:5540" <<<"$3"' _ "$A" "$B" "$out"
out=$($LAN exec $LP-h3 "$EMU" discover operational --fabric "$CFID" --timeout 3 2>&1)
check "matter-emu discover operational --fabric (from $LP-h3)" grep -q "^$OPNAME " <<<"$out"
$LAN exec $LP-h3 "$EMU" discover commissionable --discriminator 4000 --timeout 2 >/dev/null 2>&1
check "matter-emu discover with no match exits 3" test "$?" = 3

# --- what avahi-browse sees on another host --------------------------------------------------------

rec=$($LAN exec $LP-h3 avahi-browse -rpt _matterc._udp 2>/dev/null | grep "^=;[^;]*;IPv4;$A;")
txt_ok=1
for kv in D=3840 CM=1 VP=65521+32769 DT=257 DN=Light PH=33 SII=5000 SAI=300 SAT=4000 T=4; do
    grep -q "\"$kv\"" <<<"$rec" || { echo "missing $kv in: $rec" >&2; txt_ok=0; }
done
check "avahi-browse -rpt: TXT keys D CM VP DT DN PH SII SAI SAT T" test "$txt_ok" = 1
sub_ok=1
for sub in _L3840 _S15 _V65521 _T257 _CM; do
    # A few tries: `avahi-browse -t` stops at its first "all for now", which can beat a late answer.
    eventually 4 avahi_lists $LP-h3 "$sub._sub._matterc._udp" "$A" || { echo "$A missing under $sub" >&2; sub_ok=0; }
done
eventually 4 avahi_lists $LP-h3 "_L1234._sub._matterc._udp" "$B" || { echo "$B missing under _L1234" >&2; sub_ok=0; }
avahi_lists $LP-h3 "_CM._sub._matterc._udp" "$B" && { echo "$B (CM=0) listed under _CM" >&2; sub_ok=0; }
check "avahi-browse: subtypes _L3840 _S15 _V65521 _T257 _CM (and none for CM=0)" test "$sub_ok" = 1
check "avahi-browse: operational subtype _I$CFID" eventually 4 avahi_lists $LP-h3 "_I$CFID._sub._matter._tcp" "$OPNAME"

# --- name collision: the same instance name from another host -------------------------------------

start_probe c $LP-h2 --instance "$A" --discriminator 100
exec 5>"$WORK/c.in"
if wait_for "$WORK/c.out" '^ready' 30; then
    # Raw records are established at once under the old name; "ready" comes after the probe of
    # the name in use has passed, so by then the conflict has been found and the node renamed.
    C=$(name_of c 5)
    check "collision: the second host picked a new random name ($C)" \
        bash -c "[[ '$C' =~ ^[0-9A-F]{16}\$ && '$C' != '$A' ]]"
    check "collision: the renamed node is visible" browse_has $LP-h3 "$C" "" commissionable --instance "$C" "${T[@]}"
    echo quit >&5
else
    bad "collision: second publisher never established"
fi
exec 5>&-
check "collision: the original owner kept its name" browse_has $LP-h3 "$A" "" commissionable --instance "$A" "${T[@]}"

# The two paths against each other. A probing newcomer yields to raw records. Raw records of a
# newcomer, announced at once, send an established probed service back to probing, so the two
# probe at the same time and RFC 6762's tie-break (§8.2) picks who renames: exactly one does.
collides() { # NAME HOST OWNER ARGS...: a newcomer on HOST publishing OWNER's name renames
    local name=$1 host=$2 owner=$3 new
    shift 3
    start_probe "$name" "$host" --instance "$owner" "$@"
    exec 5>"$WORK/$name.in"
    wait_for "$WORK/$name.out" '^ready' 30 || { exec 5>&-; return 1; }
    new=$(name_of "$name" 5)
    echo quit >&5
    exec 5>&-
    [[ "$new" =~ ^[0-9A-F]{16}$ && "$new" != "$owner" ]] || { cat "$WORK/$name.out" >&2; return 1; }
}
check "collision: a --probe newcomer renames against raw records" collides d $LP-h3 "$A" --discriminator 101 --probe
check "collision: the raw owner kept its name" browse_has $LP-h3 "$A" "" commissionable --instance "$A" "${T[@]}"
one_renames() { # a probed owner F on h1, raw newcomer E on h2, one name: afterwards two valid names
    local f e
    start_probe f $LP-h1 --instance 2222333344445555 --discriminator 102 --probe
    exec 5>"$WORK/f.in"
    wait_for "$WORK/f.out" '^ready' 30 || { exec 5>&-; return 1; }
    start_probe e $LP-h2 --instance 2222333344445555 --discriminator 103
    exec 6>"$WORK/e.in"
    wait_for "$WORK/e.out" '^ready' 30 || { exec 5>&- 6>&-; return 1; }
    # Whichever lost the tie-break has renamed once the loser's new name passed its probe.
    wait_for "$WORK/e.out" '^conflict-checked ' 10
    sleep 2
    f=$(name_of f 5) e=$(name_of e 6)
    echo quit >&5
    echo quit >&6
    exec 5>&- 6>&-
    [[ "$f" =~ ^[0-9A-F]{16}$ && "$e" =~ ^[0-9A-F]{16}$ && "$f" != "$e" ]] &&
        { [ "$f" = 2222333344445555 ] || [ "$e" = 2222333344445555 ]; } ||
        { echo "f=$f e=$e" >&2; cat "$WORK/f.out" "$WORK/e.out" >&2; return 1; }
}
check "collision: raw newcomer against a probed owner: exactly one renames" one_renames

# --- update: TXT only, in place ----------------------------------------------------------------------

avahi_txt_has() { # HOST NAME KV: avahi-browse -rpt resolves NAME with TXT entry KV
    $LAN exec "$1" avahi-browse -rpt _matterc._udp 2>/dev/null | grep "^=;[^;]*;IPv4;$2;" | grep -q "\"$3\""
}
echo "sii 7000" >&3
if wait_for "$WORK/a.out" '^updated sii 7000' 20; then
    check "update: a TXT-only change (SII) reaches another host" eventually 15 avahi_txt_has $LP-h2 "$A" SII=7000
    echo names >&3
    wait_for "$WORK/a.out" '^names done' 10
    check "update: the TXT change kept the instance name" grep -qx "name $A" "$WORK/a.out"
else
    bad "update: probe did not confirm sii 7000"
fi

# --- update: CM 1 -> 0 withdraws _CM and changes TXT -----------------------------------------------

echo "cm 0" >&3
if wait_for "$WORK/a.out" '^updated cm 0' 20; then
    check "update: CM=0 drops the node from the _CM browse" eventually 15 gone_from $LP-h2 "$A" commissionable --cm-open --timeout 2
    check "update: TXT now says CM=0" eventually 15 shows $LP-h2 " CM=0 " commissionable --instance "$A" --limit 1 --timeout 5
else
    bad "update: probe did not confirm cm 0"
fi

# --- withdraw ---------------------------------------------------------------------------------------

echo withdraw >&3
if wait_for "$WORK/a.out" '^withdrawn' 20; then
    check "withdraw: the commissionable service disappears" eventually 15 gone_from $LP-h2 "$A" commissionable --timeout 2
    check "withdraw: the operational service stays" browse_has $LP-h2 "$OPNAME" "" operational "${T[@]}"
else
    bad "withdraw: probe did not confirm"
fi

# --- daemon goes away and comes back: re-registration ------------------------------------------------

for f in "$STATE"/$LP-h*.pid; do daemon_pids+=("$(cat "$f")"); done
if $LAN avahi-stop $LP-h1 >/dev/null 2>&1; then
    check "daemon stop: the operational record is withdrawn" eventually 15 gone_from $LP-h3 "$OPNAME" operational --timeout 2
    check "daemon stop: a new client gets the typed error at once (D-Bus up, no daemon)" no_daemon_in $LP-h1
    if $LAN avahi-start $LP-h1 >/dev/null 2>&1; then
        daemon_pids+=("$(cat "$STATE/$LP-h1.avahi.pid")")
        check "daemon back: the publisher re-registered its operational record" \
            shows $LP-h3 "^found 1\$" operational --node "$OPNAME" --limit 1 --timeout 20
        check "daemon back: the other node re-registered too" \
            browse_has $LP-h3 "$B" "" commissionable --instance "$B" --limit 1 --timeout 20
    else
        bad "avahi-start $LP-h1"
    fi
else
    bad "avahi-stop $LP-h1"
fi

# --- 200 services from one process --------------------------------------------------------------------

start_probe many $LP-h3 --count 200 --discriminator 1000 --vendor 65523
exec 6>"$WORK/many.in"
if wait_for "$WORK/many.out" '^ready' 120; then
    check "200 services: all established" test "$(grep -c '^established commissionable' "$WORK/many.out")" = 200
    out=$(browse $LP-h1 commissionable --vendor 65523 --limit 200 --timeout 60)
    check "200 services: all 200 found from $LP-h1" grep -qx "found 200" <<<"$out"
    check "200 services: 200 distinct instances, each with an address" \
        test "$(grep '^commissionable ' <<<"$out" | grep -v 'addresses=-' | awk '{print $2}' | sort -u | wc -l)" = 200
    echo quit >&6
    check "200 services: the publisher stops cleanly" wait_for "$WORK/many.out" '^bye' 30
else
    bad "200 services: publisher not ready"
fi
exec 6>&-

echo quit >&3
echo quit >&4
stopped_cleanly() { wait_for "$WORK/a.out" '^bye' 10 && wait_for "$WORK/b.out" '^bye' 10; }
check "publishers stop cleanly" stopped_cleanly
exec 3>&- 4>&-

# --- teardown leaves nothing behind -----------------------------------------------------------------

for f in "$STATE"/$LP-h*.pid; do daemon_pids+=("$(cat "$f")"); done
check "lan.sh down" $LAN down
lan_is_up=0
check "down: no $LP-* network namespace left" bash -c "! ip netns list | grep -qE '^$LP-'"
check "down: no /run/netns/$LP-* mount left" bash -c "! grep -q ' /run/netns/$LP-' /proc/mounts"
left=()
for pid in "${daemon_pids[@]}" "${probe_pids[@]}"; do [ -d "/proc/$pid" ] && left+=("$pid"); done
check "down: every holder, dbus, avahi and probe process is gone" test "${#left[@]}" = 0
check "down: is idempotent" $LAN down

summary
[ "$failed" = 0 ]
