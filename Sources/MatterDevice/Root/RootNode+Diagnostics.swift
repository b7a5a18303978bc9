import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

/// NetworkCommissioning (0x0031, Ethernet feature, no commands), GeneralDiagnostics (0x0033) and
/// GroupKeyManagement (0x003F: the IPK key set only).
extension RootNode {
    func readNetworkCommissioning(_ attribute: AttributeID) throws(StatusIB) -> TLVValue {
        switch attribute.rawValue {
        case 0x0000: Field.uint(UInt8(1))
        case 0x0001: .array([TLVElement(Field.structure([(0, .bytes(Array(configuration.interfaceName.utf8.prefix(32)))),
                                                         (1, .bool(true))]))])
        case 0x0004: .bool(true)
        case 0x0005, 0x0006, 0x0007: .null
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    func readGeneralDiagnostics(_ attribute: AttributeID) throws(StatusIB) -> TLVValue {
        switch attribute.rawValue {
        case 0x0000:
            .array([TLVElement(Field.structure([
                (0, .utf8(String(configuration.interfaceName.prefix(32)))), (1, .bool(true)), (2, .null), (3, .null),
                (4, .bytes([0x02, 0x00, 0x00, 0x00, 0x00, 0x01])), (5, .array([])), (6, .array([])), (7, Field.uint(UInt8(2))),
            ]))])
        case 0x0001: Field.uint(configuration.rebootCount)
        case 0x0002: .unsigned((clock.nowMilliseconds() - startTime) / 1000)
        case 0x0004: Field.uint(configuration.bootReason)
        case 0x0005: .array(activeHardwareFaults.map { TLVElement(.unsigned(UInt64($0))) })
        case 0x0008: .bool(false)
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    func invokeGeneralDiagnostics(_ command: CommandID, fields: TLVElement) throws(StatusIB) -> CommandResponse? {
        switch command {
        case CommandID.GeneralDiagnostics.testEventTrigger:
            throw StatusIB(.constraintError)  // test event triggers are disabled
        case CommandID.GeneralDiagnostics.timeSnapshot:
            return Field.response(CommandID.GeneralDiagnostics.timeSnapshotResponse,
                                  [(0, .unsigned(clock.nowMilliseconds())), (1, .null)])
        default:
            throw StatusIB(.unsupportedCommand)
        }
    }

    func readGroupKeyManagement(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute.rawValue {
        case 0x0000, 0x0001: .array([])
        case 0x0002: Field.uint(UInt16(4))
        case 0x0003: Field.uint(UInt16(1))
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    func invokeGroupKeyManagement(_ command: CommandID, fields: TLVElement, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        typealias C = CommandID.GroupKeyManagement
        let index = fabricIndex(of: context.session)
        switch command {
        case C.keySetRead:
            let id: UInt16 = try Field.required(fields, 0)
            guard id == 0, fabrics[index] != nil else { throw StatusIB(.notFound) }
            return Field.response(C.keySetReadResponse, [(0, Field.structure([
                (0, Field.uint(UInt16(0))), (1, Field.uint(UInt8(0))), (2, .null), (3, .null), (4, .null), (5, .null),
                (6, .null), (7, .null),
            ]))])
        case C.keySetReadAllIndices:
            return Field.response(C.keySetReadAllIndicesResponse,
                                  [(0, .array(fabrics[index] == nil ? [] : [TLVElement(.unsigned(0))]))])
        case C.keySetRemove:
            let id: UInt16 = try Field.required(fields, 0)
            throw StatusIB(id == 0 ? .invalidCommand : .notFound)
        case C.keySetWrite:
            throw StatusIB(.resourceExhausted)  // only the IPK key set (MaxGroupKeysPerFabric = 1)
        default:
            throw StatusIB(.unsupportedCommand)
        }
    }
}
