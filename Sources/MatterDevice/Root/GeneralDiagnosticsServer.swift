import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV

/// GeneralDiagnostics 0x0033 on endpoint 0: the network interface, RebootCount (persisted by the
/// device), UpTime, BootReason, ActiveHardwareFaults, TimeSnapshot; the BootReason event at each
/// boot and HardwareFaultChange when the control plane changes the faults; test event triggers
/// disabled.
final class GeneralDiagnosticsServer: RootClusterServer {
    typealias A = AttributeID.GeneralDiagnostics
    typealias C = CommandID.GeneralDiagnostics

    let interfaceName: String
    let clock: any MatterClock
    /// When the node started (clock ms).
    let startTime: UInt64
    /// BootReasonEnum of this boot, and the boots counted so far (this one included).
    let bootReason: UInt8
    let rebootCount: UInt16
    /// HardwareFaultEnum values, set from the control plane.
    private(set) var activeHardwareFaults: [UInt8] = []

    init(interfaceName: String, clock: any MatterClock, startTime: UInt64, bootReason: UInt8, rebootCount: UInt16) {
        self.interfaceName = interfaceName
        self.clock = clock
        self.startTime = startTime
        self.bootReason = bootReason
        self.rebootCount = rebootCount
        super.init(
            .generalDiagnostics,
            attributes: [
                A.networkInterfaces, A.rebootCount, A.upTime, A.bootReason, A.activeHardwareFaults,
                A.testEventTriggersEnabled,
            ])
    }

    override var events: [EventInfo] {
        [EventID.GeneralDiagnostics.hardwareFaultChange, .GeneralDiagnostics.bootReason].compactMap {
            schema.event($0).map(EventInfo.init)
        }
    }

    /// The BootReason event of this boot (spec 11.12.8.4).
    override func start() {
        recordEvent(
            .GeneralDiagnostics.bootReason, priority: .critical,
            fields: Field.structure([(0, Field.uint(bootReason))]))
    }

    /// Sets ActiveHardwareFaults and records HardwareFaultChange (Current, Previous); its event number.
    func changeHardwareFaults(to current: [UInt8]) -> UInt64? {
        let previous = activeHardwareFaults
        activeHardwareFaults = current
        attributeChanged(A.activeHardwareFaults)
        func list(_ faults: [UInt8]) -> TLVValue { .array(faults.map { TLVElement(.unsigned(UInt64($0))) }) }
        return recordEvent(
            .GeneralDiagnostics.hardwareFaultChange, priority: .critical,
            fields: Field.structure([(0, list(current)), (1, list(previous))]))
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
        case A.rebootCount: Field.uint(rebootCount)
        case A.upTime: .unsigned((clock.nowMilliseconds() - startTime) / 1000)
        case A.bootReason: Field.uint(bootReason)
        case A.activeHardwareFaults: .array(activeHardwareFaults.map { TLVElement(.unsigned(UInt64($0))) })
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
