import Foundation
import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTransport

extension VirtualDevice {
    /// `invoke`: runs a command of a cluster the endpoint serves, as the device's own buttons would
    /// (docs/CONTROL.md): `{"op":"invoke","endpoint":1,"cluster":"WindowCovering","command":"GoToLiftPercentage",
    /// "fields":{"liftPercent100thsValue":2500}}`. Fields are named as the schema names them; the answer
    /// carries the response command's fields, if the command has one. The cluster's handler decides, as
    /// for an invoke from a controller; a status other than SUCCESS is an error and changes nothing more
    /// than the handler does for that status.
    func invokeCommand(_ request: [String: Any]) async throws(ControlFailure) -> String {
        let (endpoint, cluster, schema, fields) = try Self.command(request)
        let boundDataModel = self.dataModel
        let result: Result<CommandResponse?, ControlFailure> = await node.run { node in
            let dataModel = boundDataModel.value(in: node)
            guard let server = dataModel.cluster(cluster.id, on: endpoint) else {
                return .failure(ControlFailure("endpoint \(endpoint.rawValue) has no \(cluster.name) cluster"))
            }
            guard server.acceptedCommands.contains(where: { $0.id == schema.id }) else {
                return .failure(
                    ControlFailure("\(cluster.name) on endpoint \(endpoint.rawValue) does not accept \(schema.name)"))
            }
            do throws(StatusIB) {
                return .success(
                    try server.invoke(
                        schema.id, fields: CommandFields(TLVElement(tag: .anonymous, fields)), context: .control))
            } catch {
                return .failure(ControlFailure("\(schema.name): \(error)"))
            }
        }
        guard let response = try result.get() else { return Self.answer() }
        guard let responseSchema = cluster.response(response.command) else {
            return Self.answer(["response": ["command": Int(response.command.rawValue)]])
        }
        let text = responseSchema.format(response.fields)
        let formatted = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) ?? text
        return Self.answer(["response": ["command": responseSchema.name, "fields": formatted]])
    }

    /// The endpoint, cluster, command and fields a control-plane request names (`invoke`, `send`).
    static func command(_ request: [String: Any]) throws(ControlFailure)
        -> (EndpointID, ClusterSchema, CommandSchema, TLVValue)
    {
        let endpoint = try Self.endpoint(request)
        let cluster = try Self.cluster(request)
        guard let commandName = ControlTarget.name(request["command"]) else {
            throw ControlFailure("\"command\" must be a command name or ID")
        }
        guard let schema = cluster.command(named: commandName) else {
            throw ControlFailure("\(cluster.name) defines no command \(commandName)")
        }
        return (endpoint, cluster, schema, try Self.fields(request, schema.name, schema.fields))
    }
}
