// matter-emu-bench: measurements behind docs/BENCHMARKS.md (run through scripts/bench.sh, release
// build). Not a test: it asserts nothing, it prints figures (`figure` lines for the results table)
// and raw lines.
//
//   matter-emu-bench transport [round-trips]      encrypted echo round trips, ::1 and 127.0.0.1
//   matter-emu-bench pase [count]                 PASE handshakes (1000 PBKDF2 iterations)
//   matter-emu-bench commissioning [count]        commissioning by direct address; invoke RT and invokes/s
//   matter-emu-bench case [count]                 CASE full and resumed
//   matter-emu-bench fleet SIZE                   start-up time and memory of a fleet (no DNS-SD)
//   matter-emu-bench parallel [--fleet N]         commissioning at 1, 8, 32 in parallel; 100 at 8 and 32; group toggle
//   matter-emu-bench serve-fleet ... / split-commission ...  the same with the devices in another process
//   matter-emu-bench rr-memory --ready FILE       device memory per fabric, CASE session, subscription (TC_RR_1_1)
//   matter-emu-bench lan-devices ...              (virtual LAN) devices for the commissioner and the SDK
//   matter-emu-bench lan-commission ...           (virtual LAN) our commissioner, with discovery and direct
//   matter-emu-bench lan-fleet ... / lan-browse ...  (virtual LAN) a fleet advertised, seen from another host
//   matter-emu-bench lan-advertise ... / lan-resolve ...  (virtual LAN) one record advertised -> resolved, raw vs --probe
//   matter-emu-bench sdk-report ...               the SDK's stage timings beside the device's handling time
import Foundation
import MatterCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let what = arguments.first ?? "all"
let options = Options(arguments.dropFirst())
let count = options.positional.first.flatMap { Int($0) }
do {
    switch what {
    case "transport":
        try await transportBench(host: "::1", count: count ?? 5000)
        try await transportBench(host: "127.0.0.1", count: count ?? 5000)
    case "pase": try await paseBench(count: count ?? 30, iterations: 1000)
    case "commissioning": try await commissioningBench(count: count ?? 20, invokes: options.int("invokes", 5000))
    case "case": try await caseBench(count: count ?? 30)
    case "fleet": try await fleetBench(size: count ?? 100)
    case "parallel": try await parallelBench(options)
    case "serve-fleet": try await serveFleet(options)
    case "split-commission": try await splitCommission(options)
    case "rr-memory": try await rrMemory(options)
    case "lan-devices": try await lanDevices(options)
    case "lan-commission": try await lanCommission(options)
    case "lan-fleet": try await lanFleet(options)
    case "lan-browse": try await lanBrowse(options)
    case "lan-advertise": try await lanAdvertise(options)
    case "lan-resolve": try await lanResolve(options)
    case "sdk-report": try sdkReport(options)
    default:
        throw BenchError.usage("matter-emu-bench transport|pase|commissioning|case|fleet|parallel|lan-...|sdk-report")
    }
} catch {
    StandardError.write("matter-emu-bench: \(error)\n")
    exit(1)
}
