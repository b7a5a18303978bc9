import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV

/// GeneralDiagnostics 0x0033 on endpoint 0: the network interface, RebootCount, UpTime,
/// TimeSnapshot; test event triggers disabled. (Hook point for BootReason and other diagnostics
/// events: `recordEvent` from here.)
final class GeneralDiagnosticsServer: RootClusterServer, @unchecked Sendable {
    typealias A = AttributeID.GeneralDiagnostics
    typealias C = CommandID.GeneralDiagnostics

    let interfaceName: String
    let clock: any MatterClock
    /// When the node started (clock ms).
    let startTime: UInt64

    init(interfaceName: String, clock: any MatterClock, startTime: UInt64) {
        self.interfaceName = interfaceName
        self.clock = clock
        self.startTime = startTime
        super.init(
            .generalDiagnostics, attributes: [A.networkInterfaces, A.rebootCount, A.upTime, A.testEventTriggersEnabled])
    }

    override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute {
        case A.networkInterfaces:
            .array([
                TLVElement(
                    Field.structure([
                        (0, .utf8(String(interfaceName.prefix(32)))), (1, .bool(true)), (2, .null), (3, .null),
                        (4, .bytes([0x02, 0x00, 0x00, 0x00, 0x00, 0x01])), (5, .array([])), (6, .array([])),
                        (7, Field.uint(UInt8(2))),
                    ]))
            ])
        case A.rebootCount: Field.uint(UInt16(1))
        case A.upTime: .unsigned((clock.nowMilliseconds() - startTime) / 1000)
        case A.testEventTriggersEnabled: .bool(false)
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        switch command {
        case C.testEventTrigger:
            throw StatusIB(.constraintError)  // test event triggers are disabled
        case C.timeSnapshot:
            return Field.response(C.timeSnapshotResponse, [(0, .unsigned(clock.nowMilliseconds())), (1, .null)])
        default:
            throw StatusIB(.unsupportedCommand)
        }
    }
}
