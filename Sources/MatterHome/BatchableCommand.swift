import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

/// A command to send with others in ``Home/sendBatchedCommands(_:)``, made by a trait's
/// `<command>Batchable(...)` (`onOffTrait.toggleBatchable()`); `ResponseType` is `Void` for a command
/// answered with a status, else its typed response.
public struct BatchableCommand<ResponseType: Sendable>: Sendable {
    let part: DevicePart
    let cluster: ClusterID
    let command: CommandID
    /// The command's fields, or why they could not be written.
    let fields: Result<[TLVElement], HomeError>
    let decode: @Sendable (InvokeResult) throws(HomeError) -> ResponseType
}

extension DevicePart {
    /// `command` as a batchable command answered with a status.
    func batchable<C: ClusterCommand>(_ command: C) -> BatchableCommand<Void> {
        BatchableCommand(
            part: self, cluster: C.cluster, command: C.id,
            fields: Result { () throws(HomeError) in try command.fieldElements() },
            decode: { _ throws(HomeError) in })
    }

    /// `command` as a batchable command answered with its response command.
    func batchableWithResponse<C: ClusterCommand>(_ command: C) -> BatchableCommand<C.Response> {
        BatchableCommand(
            part: self, cluster: C.cluster, command: C.id,
            fields: Result { () throws(HomeError) in try command.fieldElements() },
            decode: { result throws(HomeError) in try Self.response(C.self, result) })
    }

    /// The typed response of `C` in `result` (an empty one for a status).
    static func response<C: ClusterCommand>(_: C.Type, _ result: InvokeResult) throws(HomeError) -> C.Response {
        let fields: TLVValue
        switch result {
        case .response(_, let responseFields): fields = responseFields
        case .status: fields = .structure([])
        }
        do {
            return try C.Response(tlv: TLVElement(fields))
        } catch {
            throw HomeError(
                .status,
                "\(commandName(C.cluster, C.id)): the device's answer does not read as \(C.Response.self): \(error)",
                code: .internal)
        }
    }
}
