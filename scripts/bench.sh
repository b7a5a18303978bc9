#!/usr/bin/env bash
# Measures matter-emu on this machine (release build) and writes docs/BENCHMARKS.md.
# Usage: scripts/bench.sh [round-trips]   (default 5000). Loopback only; nothing leaves the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5000}

echo "bench: release build" >&2
swift build -c release --product matter-emu-bench -Xswiftc -warnings-as-errors >&2
bin="$(swift build -c release --show-bin-path)/matter-emu-bench"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" all "$count" 2>/dev/null | tee "$out"

# One-shot CLI: `matter-emu onoff toggle` as a new process each time (start, CASE, invoke, exit).
swift build -c release --product matter-emu -Xswiftc -warnings-as-errors >&2
emu="$(swift build -c release --show-bin-path)/matter-emu"
scratch=$(mktemp -d)
"$emu" device --type on-off-plug --secured-device-port 5599 --no-advertise --state-dir "$scratch/device" \
    --factory-reset >/dev/null 2>&1 &
device_pid=$!
trap 'kill $device_pid 2>/dev/null; rm -rf "$scratch" "$out"' EXIT
sleep 1
"$emu" pairing already-discovered 1 20202021 ::1 5599 --state-dir "$scratch/controller" >/dev/null 2>&1
times=()
for _ in $(seq 1 20); do
    start=$(date +%s%N)
    "$emu" onoff toggle 1 --address "[::1]:5599" --state-dir "$scratch/controller" >/dev/null 2>&1
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
p50=$(echo "$sorted" | sed -n '10p')
p95=$(echo "$sorted" | sed -n '19p')
echo "one-shot CLI 'matter-emu onoff toggle' (new process: start, CASE, invoke, exit): p50 ${p50} ms, p95 ${p95} ms over 20" \
    | tee -a "$out"

{
    echo "# Benchmarks"
    echo
    echo "Written by \`scripts/bench.sh $count\` (release build). Figures are from one run on the machine below;"
    echo "rerun the script to reproduce them. Loopback UDP only."
    echo
    echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "- machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB, $(uname -sr)"
    echo "- toolchain: $(swift --version 2>&1 | head -1)"
    echo
    echo "## Method"
    echo
    echo "- transport: two nodes on loopback UDP with a secure session; each round trip opens an exchange,"
    echo "  sends a 64-byte request (AES-128-CCM, MRP), the peer echoes it on its queue, the initiator"
    echo "  closes the exchange (standalone ack). Latency: $count sequential round trips after 200 warm-up;"
    echo "  throughput: $count round trips spread over 1, 8 and 64 concurrent requesters."
    echo "- pase: full PASE (PBKDFParamRequest to StatusReport) between our commissioner and device, 1000"
    echo "  PBKDF2 iterations, the commissioner side timed."
    echo "- commissioning: our commissioner commissions a fresh virtual dimmable light on ::1 by direct"
    echo "  address (PASE, reads, fail-safe, attestation against fixtures/pki, CSR, NOC, CASE, complete),"
    echo "  20 times; then 1000 Toggle invokes over the CASE session through the typed controller API."
    echo "- case: a fresh controller (no resumption record) reaches a commissioned plug: full CASE plus one"
    echo "  Toggle; then the session is closed and the next Toggle resumes it (30 rounds)."
    echo "- one-shot CLI: 20 runs of \`matter-emu onoff toggle 1 --address [::1]:5599\` as new processes"
    echo "  against a release-built device, wall time per process."
    echo "- fleet: 10, 100 and 1000 on-off lights started in one process (ports picked by the OS, a DAC"
    echo "  issued per device, no DNS-SD); wall time to commissionable, and resident memory (VmRSS)."
    echo
    echo "## Results"
    echo
    echo '```'
    cat "$out"
    echo '```'
} > docs/BENCHMARKS.md
echo "bench: wrote docs/BENCHMARKS.md" >&2
