import Foundation
import MatterTestSupport
import Testing

/// Fleet shards as pods on the LAN (issue 34), run by scripts/test-pods.sh: deploy/kubernetes's macvlan overlay,
/// made small (2 shards of 3) by an overlay of this test's own, rendered as Pods and run by `podman kube play`
/// on a macvlan network over the LAN; every pod prints the rows `fleet codes` computes for its shard, and a
/// controller on host 1 commissions one device of every shard by its computed QR code and switches it on.
@Suite(.enabled(if: LAN.isUp(for: "pods"), "run by scripts/test-pods.sh"), .serialized)
struct PodFleetTests {
    typealias Object = [String: Any]

    @Test("every shard in its pod, commissioned by computed codes from another host")
    func shardsAsPods() async throws {
        let lan = try LAN.required(for: "pods")
        let environment = ProcessInfo.processInfo.environment
        let work = try #require(environment["MATTER_PODS_WORK"])
        let network = try #require(environment["MATTER_PODS_NETWORK"])
        let deploy = BuiltBinaries.packageRoot + "/deploy/kubernetes"

        // The macvlan overlay with 2 shards of 3 devices.
        let overlay = work + "/overlay"
        try FileManager.default.createDirectory(atPath: overlay, withIntermediateDirectories: true)
        try """
        resources:
          - \(deploy)/overlays/macvlan
        patches:
          - path: small.yaml
        """.write(toFile: overlay + "/kustomization.yaml", atomically: true, encoding: .utf8)
        try """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: matter-emu-fleet
        data:
          SHARDS: "2"
          COUNT: "3"
        ---
        apiVersion: apps/v1
        kind: StatefulSet
        metadata:
          name: matter-emu-fleet
        spec:
          replicas: 2
        """.write(toFile: overlay + "/small.yaml", atomically: true, encoding: .utf8)
        let render = ["/usr/bin/env", "python3", deploy + "/render.py", overlay, "--pods"]
        let yaml = try await ProcessRunner.run(render, limit: .seconds(60))
        #expect(yaml.exitCode == 0, "\(yaml.stderr)")
        try yaml.stdout.write(toFile: work + "/pods.yaml", atomically: true, encoding: .utf8)
        let json = try await ProcessRunner.run(render + ["--json"], limit: .seconds(60))
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Object])
        let pods = objects.filter { $0["kind"] as? String == "Pod" }
        #expect(pods.count == 2)
        let args = try #require(
            ((pods.first?["spec"] as? Object)?["containers"] as? [Object])?.first?["args"] as? [String])
        func option(_ name: String) -> String? { args.firstIndex(of: name).map { args[$0 + 1] } }

        let played = try await ProcessRunner.run(
            ["podman", "kube", "play", "--network", network, work + "/pods.yaml"], limit: .seconds(180))
        #expect(played.exitCode == 0, "\(played.stdout)\(played.stderr)")

        // The codes, computed with the pods' options, never asked of a pod.
        var codes = ["fleet", "codes", "--shards", "2", "--json"]
        for name in ["--count", "--type", "--seed", "--base-port", "--shard-ports"] {
            codes += [name, try #require(option(name), "\(name)")]
        }
        let computed = try await ProcessRunner.runMatterEmu(codes, limit: .seconds(60))
        let rows = try #require(try computed.json()["devices"] as? [Object])
        #expect(rows.count == 6)

        for shard in 0..<2 {
            let pod = "matter-emu-fleet-\(shard)"
            // The pod's first line: the rows of its devices, once every one has started.
            var printed: [Object]?
            for _ in 0..<600 where printed == nil {
                let logs = try await ProcessRunner.run(["podman", "logs", pod + "-fleet"], limit: .seconds(30))
                let first = logs.stdout.split(separator: "\n").first.map(String.init) ?? ""
                printed =
                    (try? JSONSerialization.jsonObject(with: Data(first.utf8)) as? Object)?["devices"] as? [Object]
                if printed == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let started = try #require(printed, "\(pod) printed no rows")
            let expected = rows.filter { $0["shard"] as? Int == shard }
            #expect(started.count == expected.count)
            for (row, wanted) in zip(started, expected) {
                #expect(NSDictionary(dictionary: row).isEqual(to: wanted), "\(row) != \(wanted)")
            }

            // One device of the shard, found through host 1's Avahi by its computed QR code.
            let qr = try #require(expected[1]["qrCode"] as? String)
            let state = ["--state-dir", work + "/controller"]
            let node = "\(shard + 1)"
            let paired = try lan.run(
                lan.host(1), [BuiltBinaries.matterEmu, "pairing", "code", node, qr] + state, timeout: 120)
            #expect(paired.exitCode == 0, "\(pod): \(paired.stderr)")
            let on = try lan.run(lan.host(1), [BuiltBinaries.matterEmu, "onoff", "on", node, "1"] + state)
            #expect(on.exitCode == 0, "\(pod): \(on.stderr)")
            let read = try lan.run(
                lan.host(1), [BuiltBinaries.matterEmu, "onoff", "read", "on-off", node, "1", "--json"] + state)
            #expect(try read.json()["value"] as? Bool == true, "\(pod): \(read.stdout)\(read.stderr)")
        }

        let down = try await ProcessRunner.run(["podman", "kube", "down", work + "/pods.yaml"], limit: .seconds(120))
        #expect(down.exitCode == 0, "\(down.stderr)")
    }
}
