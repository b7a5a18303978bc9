import Foundation
import MatterTestSupport
import Testing

/// deploy/kubernetes rendered for both network set-ups (by deploy/kubernetes/render.py, and compared
/// with `kubectl kustomize` where kubectl is installed): the StatefulSet runs one shard per pod as the
/// ConfigMap says, `fleet codes` with the ConfigMap's values computes every code, and each overlay has
/// what carries mDNS. Run by scripts/test-k8s.sh, which exports MATTER_K8S_SUITE (and validates the same
/// renderings against the Kubernetes API schemas with kubernetes-validate).
@Suite(
    "deploy/kubernetes: the rendered manifests",
    .enabled(if: ProcessInfo.processInfo.environment["MATTER_K8S_SUITE"] != nil, "run by scripts/test-k8s.sh"))
struct KubernetesManifestTests {
    static let deploy = TestPaths.repositoryRoot.appendingPathComponent("deploy/kubernetes").path
    static let overlays = ["hostnetwork", "macvlan"]
    /// Resident memory of a shard of 1,000 with the embedded responder once another host resolved it
    /// (123.1 MiB by scripts/bench-shard.sh, docs/SCALE-OUT.md): the memory request must cover it.
    static let measuredMiBPer1000 = 124

    typealias Object = [String: Any]

    /// Whether `kubectl` is on PATH (it carries Kustomize).
    static var kubectlInstalled: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/kubectl") }
    }

    static func render(_ overlay: String, pods: Bool = false) async throws -> [Object] {
        let result = try await ProcessRunner.run(
            ["/usr/bin/env", "python3", deploy + "/render.py", deploy + "/overlays/" + overlay, "--json"]
                + (pods ? ["--pods"] : []), limit: .seconds(60))
        #expect(result.exitCode == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Object])
    }

    static func object(_ objects: [Object], kind: String) throws -> Object {
        try #require(objects.first { $0["kind"] as? String == kind }, "no \(kind)")
    }

    /// `value[path...]`, walking maps and (for Int keys) lists.
    static func at(_ value: Any?, _ path: Any...) -> Any? {
        var current = value
        for step in path {
            if let key = step as? String { current = (current as? Object)?[key] }
            if let index = step as? Int, let list = current as? [Any], list.indices.contains(index) {
                current = list[index]
            } else if step is Int {
                current = nil
            }
        }
        return current
    }

    @Test("one shard per pod, from the ConfigMap, with `fleet codes` computing every code", arguments: overlays)
    func shardsFromTheConfigMap(overlay: String) async throws {
        let objects = try await Self.render(overlay)
        let data = try #require(Self.at(try Self.object(objects, kind: "ConfigMap"), "data") as? [String: String])
        let set = try Self.object(objects, kind: "StatefulSet")
        let service = try Self.object(objects, kind: "Service")
        let shards = try #require(data["SHARDS"].flatMap { Int($0) })
        #expect(Self.at(set, "spec", "replicas") as? Int == shards)
        #expect(Self.at(set, "spec", "serviceName") as? String == Self.at(service, "metadata", "name") as? String)
        #expect(Self.at(service, "spec", "clusterIP") as? String == "None")
        let podLabels = try #require(Self.at(set, "spec", "template", "metadata", "labels") as? [String: String])
        for selector in [Self.at(set, "spec", "selector", "matchLabels"), Self.at(service, "spec", "selector")] {
            let labels = try #require(selector as? [String: String])
            #expect(labels.allSatisfy { podLabels[$0.key] == $0.value })
        }

        let container = try #require(Self.at(set, "spec", "template", "spec", "containers", 0) as? Object)
        #expect(
            Self.at(container, "envFrom", 0, "configMapRef", "name") as? String
                == Self.at(try Self.object(objects, kind: "ConfigMap"), "metadata", "name") as? String)
        // $(NAME) expanded from the ConfigMap, as the kubelet does.
        let args = try #require(container["args"] as? [String]).map { argument in
            data.reduce(argument) { $0.replacingOccurrences(of: "$(\($1.key))", with: $1.value) }
        }
        func option(_ name: String) -> String? { args.firstIndex(of: name).map { args[$0 + 1] } }
        #expect(args.first == "fleet")
        #expect(option("--shard") == "hostname/\(shards)")
        #expect(option("--mdns") == "embedded")
        #expect(!args.contains { $0.contains("$(") }, "\(args)")
        // Every probe asks the control socket the fleet serves.
        let control = try #require(option("--control"))
        for probe in ["startupProbe", "readinessProbe", "livenessProbe"] {
            let command = try #require(Self.at(container, probe, "exec", "command") as? [String], "\(probe)")
            #expect(command.prefix(3) == ["matter-emu", "ctl", control][...], "\(probe): \(command)")
        }
        // Nothing in the pod but the fleet: no avahi-daemon beside it.
        #expect((Self.at(set, "spec", "template", "spec", "containers") as? [Any])?.count == 1)
        #expect(Self.at(set, "spec", "template", "spec", "securityContext", "runAsNonRoot") as? Bool == true)

        // Memory: the request covers the measured resident memory of a shard of COUNT devices.
        let count = try #require(option("--count").flatMap { Int($0) })
        let request = try #require(Self.at(container, "resources", "requests", "memory") as? String)
        let mebibytes = try #require(request.hasSuffix("Mi") ? Int(request.dropLast(2)) : nil, "\(request)")
        #expect(mebibytes >= Self.measuredMiBPer1000 * count / 1000, "\(request) for \(count) devices")

        // The codes of every pod, computed with the options the pods run with.
        var codes = ["fleet", "codes", "--shards", "\(shards)", "--json"]
        for name in ["--count", "--type", "--seed", "--base-port", "--shard-ports"] {
            codes += [name, try #require(option(name), "\(name)")]
        }
        let computed = try await ProcessRunner.runMatterEmu(codes, limit: .seconds(120))
        #expect(computed.exitCode == 0, "\(computed.stderr)")
        let rows = try #require(try computed.json()["devices"] as? [Object])
        #expect(rows.count == shards * count)
        #expect(Set(rows.compactMap { $0["passcode"] as? Int }).count == rows.count)
    }

    @Test("host networking: one shard per node")
    func hostNetwork() async throws {
        let set = try Self.object(try await Self.render("hostnetwork"), kind: "StatefulSet")
        let pod = Self.at(set, "spec", "template", "spec")
        #expect(Self.at(pod, "hostNetwork") as? Bool == true)
        #expect(Self.at(pod, "dnsPolicy") as? String == "ClusterFirstWithHostNet")
        let term = Self.at(pod, "affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution", 0)
        #expect(Self.at(term, "topologyKey") as? String == "kubernetes.io/hostname")
        let labels = try #require(Self.at(term, "labelSelector", "matchLabels") as? [String: String])
        let podLabels = try #require(Self.at(set, "spec", "template", "metadata", "labels") as? [String: String])
        #expect(!labels.isEmpty && labels.allSatisfy { podLabels[$0.key] == $0.value })
    }

    @Test("Multus macvlan: every pod on the LAN through the NetworkAttachmentDefinition it names")
    func macvlan() async throws {
        let objects = try await Self.render("macvlan")
        let set = try Self.object(objects, kind: "StatefulSet")
        #expect(Self.at(set, "spec", "template", "spec", "hostNetwork") == nil)
        let attachment = try Self.object(objects, kind: "NetworkAttachmentDefinition")
        #expect(Self.at(attachment, "apiVersion") as? String == "k8s.cni.cncf.io/v1")
        let name = try #require(Self.at(attachment, "metadata", "name") as? String)
        #expect(
            Self.at(set, "spec", "template", "metadata", "annotations", "k8s.v1.cni.cncf.io/networks") as? String
                == name)
        // Multus's CRD has no schema in kubernetes-validate: its one field, a CNI configuration, is checked here.
        let config = try #require(Self.at(attachment, "spec", "config") as? String)
        let cni = try #require(try JSONSerialization.jsonObject(with: Data(config.utf8)) as? Object)
        #expect(cni["type"] as? String == "macvlan")
        #expect(cni["name"] as? String == name)
        #expect(cni["master"] is String)
        #expect(Self.at(cni, "ipam", "type") is String)
    }

    @Test("rendered as Pods (podman kube play): one per ordinal, whose host name gives the CLI its shard")
    func pods() async throws {
        let objects = try await Self.render("macvlan", pods: true)
        let pods = objects.filter { $0["kind"] as? String == "Pod" }
        let data = try #require(Self.at(try Self.object(objects, kind: "ConfigMap"), "data") as? [String: String])
        #expect(pods.count == data["SHARDS"].flatMap { Int($0) })
        #expect(!objects.contains { $0["kind"] as? String == "StatefulSet" })
        for (ordinal, pod) in pods.enumerated() {
            let hostname = try #require(Self.at(pod, "spec", "hostname") as? String)
            #expect(hostname.hasSuffix("-\(ordinal)"))
            #expect(Self.at(pod, "metadata", "name") as? String == hostname)
        }
    }

    @Test(
        "render.py renders what kubectl kustomize does",
        .enabled(if: kubectlInstalled, "kubectl is not installed"),
        arguments: overlays)
    func sameAsKubectl(overlay: String) async throws {
        let script = """
            kubectl kustomize "$1" | python3 -c 'import json, sys, yaml; \
            print(json.dumps([d for d in yaml.safe_load_all(sys.stdin) if d is not None]))'
            """
        let result = try await ProcessRunner.run(
            ["/bin/sh", "-c", script, "sh", Self.deploy + "/overlays/" + overlay], limit: .seconds(120))
        #expect(result.exitCode == 0, "\(result.stderr)")
        let kubectl = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Object])
        let ours = try await Self.render(overlay)
        func keyed(_ objects: [Object]) -> [String: NSDictionary] {
            Dictionary(
                uniqueKeysWithValues: objects.map {
                    ("\($0["kind"] ?? "")/\(Self.at($0, "metadata", "name") ?? "")", NSDictionary(dictionary: $0))
                })
        }
        #expect(keyed(kubectl) == keyed(ours))
    }
}
