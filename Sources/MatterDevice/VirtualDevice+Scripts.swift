import Foundation
import MatterClusters
import MatterCore
import MatterDataModel
import MatterTransport

extension VirtualDevice {
    /// `script`: starts a script on an attribute (`"script":"sine(min=1800,max=2400,period=10m)"`),
    /// replacing the one running there, or stops it (`"script":null`). docs/SCRIPTS.md.
    func scriptAction(_ request: [String: Any]) async throws(ControlFailure) -> String {
        let endpoint = request["endpoint"] == nil ? 1 : try Self.endpoint(request).rawValue
        guard let cluster = ControlTarget.name(request["cluster"]) else {
            throw ControlFailure("\"cluster\" must be a cluster name or ID")
        }
        guard let attribute = ControlTarget.name(request["attribute"]) else {
            throw ControlFailure("\"attribute\" must be an attribute name or ID")
        }
        let target: AttributeScripts.Target
        let script: AttributeScript?
        do throws(ScriptError) {
            target = try ScriptAssignment.target(endpoint: endpoint, cluster: cluster, attribute: attribute)
            switch request["script"] {
            case is NSNull: script = nil
            case let text as String: script = try AttributeScript(parsing: text, readFile: ScriptAssignment.readFile)
            default: throw ScriptError("\"script\" must be a script (sine(min=...,max=...,period=...)) or null")
            }
        } catch {
            throw ControlFailure(error.message)
        }
        let boundDataModel = self.dataModel
        let result: Result<Bool, ControlFailure> = await node.run { node in
            let scripts = boundDataModel.value(in: node).scripts
            guard let script else { return .success(scripts.stop(target)) }
            do throws(ScriptError) {
                try scripts.start(script, on: target)
                return .success(true)
            } catch {
                return .failure(ControlFailure(error.message))
            }
        }
        let changed = try result.get()
        if let script { return Self.answer(["target": "\(target)", "script": script.text]) }
        return Self.answer(["target": "\(target)", "stopped": changed])
    }

    /// `scripts`: the scripts running now.
    func scriptList() async -> String {
        let boundDataModel = self.dataModel
        let all = await node.run { node in
            boundDataModel.value(in: node).scripts.all.map { ($0.target, $0.script.text) }
        }
        return Self.answer([
            "scripts": all.map { target, text in
                let schema = ClusterRegistry.standard.cluster(target.cluster)
                return [
                    "endpoint": Int(target.endpoint.rawValue), "cluster": schema?.name ?? "\(target.cluster)",
                    "attribute": schema?.attribute(target.attribute)?.name ?? "\(target.attribute)", "script": text,
                ] as [String: Any]
            }
        ])
    }
}
