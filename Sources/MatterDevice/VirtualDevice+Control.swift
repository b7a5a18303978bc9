import Foundation
import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTransport

extension VirtualDevice {
    /// Answers one control-plane request (one JSON object, docs/CONTROL.md) with one JSON line:
    /// `{"ok":true,...}` or `{"ok":false,"error":"..."}`. Runs on the node's queue, through the data
    /// model, so reports and state changes follow as for any other change. A bad request changes nothing.
    public func control(_ line: String) async -> String {
        switch Self.parseRequest(line) {
        case .success(let request): await control(request: request)
        case .failure(let failure): Self.answer(error: failure.message)
        }
    }

    /// One request line as a JSON object with an `op`, or why it is not one.
    static func parseRequest(_ line: String) -> Result<[String: Any], ControlFailure> {
        parseObject(line).flatMap { request in
            request["op"] is String ? .success(request) : .failure(ControlFailure("missing \"op\""))
        }
    }

    /// One line as a JSON object, or why it is not one.
    static func parseObject(_ line: String) -> Result<[String: Any], ControlFailure> {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        } catch {
            return .failure(ControlFailure("malformed JSON"))
        }
        guard let request = object as? [String: Any] else {
            return .failure(ControlFailure("a request is one JSON object"))
        }
        return .success(request)
    }

    /// Answers one parsed request (see ``control(_:)``); `reboot` and `factory-reset` need a
    /// ``DeviceHost``, which restarts the device.
    func control(request: [String: Any]) async -> String {
        let op = request["op"] as? String ?? ""
        switch op {
        case "get", "set":
            let target: ControlTarget
            do {
                target = try ControlTarget(request)
            } catch {
                return Self.answer(error: error.message)
            }
            var encoded: TLVValue?
            if op == "set" {
                guard let value = request["value"] else { return Self.answer(error: "\"set\" needs a \"value\"") }
                if let mismatch = Self.typeMismatch(value, target.attribute) { return Self.answer(error: mismatch) }
                if target.cluster.id == .basicInformation, target.attribute.id == .BasicInformation.nodeLabel,
                    let label = value as? String, let problem = BasicInformationServer.nodeLabelProblem(label)
                {
                    return Self.answer(error: "NodeLabel: CONSTRAINT_ERROR: the label \(problem)")
                }
                do {
                    encoded = try target.attribute.encode(cliValue: Self.cliText(value))
                } catch {
                    return Self.answer(error: "\(error)")
                }
            }
            let boundDataModel = self.dataModel
            let setValue = encoded
            let result: Result<TLVValue, ControlFailure> = await node.run { node in
                let dataModel = boundDataModel.value(in: node)
                guard let server = dataModel.cluster(target.cluster.id, on: target.endpoint) else {
                    return .failure(
                        ControlFailure("endpoint \(target.endpoint.rawValue) has no \(target.cluster.name) cluster"))
                }
                // The global attributes too (FeatureMap, AttributeList, AcceptedCommandList...), as a read serves them.
                let served = dataModel.servedAttributes(endpoint: target.endpoint, cluster: target.cluster.id)
                guard served.contains(target.attribute.id) else {
                    return .failure(
                        ControlFailure(
                            "\(target.cluster.name) on endpoint \(target.endpoint.rawValue) has no attribute \(target.attribute.name)"
                        ))
                }
                let path = ConcreteAttributePath(
                    endpoint: target.endpoint, cluster: target.cluster.id, attribute: target.attribute.id)
                do throws(StatusIB) {
                    if let setValue {
                        guard !target.attribute.id.isGlobal else { throw StatusIB(.unsupportedWrite) }
                        try server.setLocally(target.attribute.id, setValue)
                        // A value set by hand takes the attribute over from its script.
                        dataModel.scripts.stop(
                            AttributeScripts.Target(
                                endpoint: target.endpoint, cluster: target.cluster.id, attribute: target.attribute.id))
                    }
                    return .success(try dataModel.readServed(path, context: .control))
                } catch {
                    return .failure(ControlFailure("\(target.attribute.name): \(error)"))
                }
            }
            switch result {
            case .success(let value):
                return Self.answer(["value": Self.json(value, schema: target.attribute)])
            case .failure(let failure):
                return Self.answer(error: failure.message)
            }
        case "reboot", "factory-reset":
            return Self.answer(error: "\"\(op)\" needs a device started through DeviceHost")
        default:
            if let answer = await action(op, request) { return answer }
            return Self.answer(error: "unknown op \"\(op)\"")
        }
    }

    /// Why a JSON value cannot be a value of `attribute`'s type (a number for a string, a string or
    /// number for a boolean, a boolean for a number), or nil; the codec checks the rest (range, form).
    static func typeMismatch(_ value: Any, _ attribute: AttributeSchema) -> String? {
        if value is NSNull { return nil }
        let isBoolean = (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
        let ok: Bool
        switch attribute.type {
        case .string, .octets: ok = value is String
        case .boolean: ok = isBoolean
        case .unsigned, .signed, .enumeration, .bitmap, .float, .double: ok = !isBoolean
        case .list, .structure: ok = !(value is NSNumber)  // JSON, or its text
        }
        return ok ? nil : "\(attribute.name) takes \(attribute.type.description), not \(cliText(value))"
    }

    /// A JSON integer (not a boolean, which JSONSerialization also hands over as an NSNumber).
    static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return value as? Int
    }

    /// A JSON value as the text `AttributeSchema.encode(cliValue:)` reads.
    static func cliText(_ value: Any) -> String {
        if let text = value as? String { return text }
        if value is NSNull { return "null" }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else {
            return "\(value)"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A TLV value as JSON: scalars as themselves, anything else as the schema formats it.
    static func json(_ value: TLVValue, schema: AttributeSchema) -> Any {
        switch value {
        case .bool(let b): b
        case .unsigned(let u): u
        case .signed(let s): s
        case .utf8(let text): text
        case .null: NSNull()
        case .float(let f): Double(f)
        case .double(let d): d
        default:
            // Lists and structs: the schema's JSON text, as JSON.
            { text in
                (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) ?? text
            }(schema.format(value))
        }
    }

    static func answer(_ fields: [String: Any] = [:]) -> String {
        var object = fields
        object["ok"] = true
        return serialize(object)
    }

    static func answer(error: String) -> String { serialize(["ok": false, "error": error]) }

    private static func serialize(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return #"{"ok":false,"error":"the answer could not be encoded"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Why a control request failed (its message goes back to the client).
struct ControlFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The endpoint, cluster and attribute a `get`/`set` request names (by schema name or ID).
struct ControlTarget: Sendable {
    let endpoint: EndpointID
    let cluster: ClusterSchema
    let attribute: AttributeSchema

    init(_ request: [String: Any]) throws(ControlFailure) {
        guard let number = VirtualDevice.integer(request["endpoint"]), let id = UInt16(exactly: number) else {
            throw ControlFailure("\"endpoint\" must be an endpoint number")
        }
        guard let clusterName = Self.name(request["cluster"]) else {
            throw ControlFailure("\"cluster\" must be a cluster name or ID")
        }
        guard let attributeName = Self.name(request["attribute"]) else {
            throw ControlFailure("\"attribute\" must be an attribute name or ID")
        }
        do {
            cluster = try ClusterRegistry.standard.requireCluster(named: clusterName)
            attribute = try cluster.requireAttribute(named: attributeName)
        } catch {
            throw ControlFailure("\(error)")
        }
        endpoint = EndpointID(id)
    }

    static func name(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        if let number = VirtualDevice.integer(value) { return String(number) }
        return nil
    }
}

extension InteractionContext {
    /// The context of control-plane reads and sets: the node itself.
    static let control = InteractionContext(
        subject: SubjectDescriptor(authMode: .pase, fabricIndex: 0, subject: 0),
        session: .secure(localSessionID: 0))
}
