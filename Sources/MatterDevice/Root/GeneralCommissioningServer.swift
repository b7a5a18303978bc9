import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV

/// GeneralCommissioning 0x0030 on endpoint 0: the fail-safe (ArmFailSafe, CommissioningComplete),
/// the breadcrumb and the regulatory configuration, over the node's ``FailSafe``.
final class GeneralCommissioningServer: RootClusterServer {
    typealias A = AttributeID.GeneralCommissioning
    typealias C = CommandID.GeneralCommissioning

    let failSafe: FailSafe
    let windows: CommissioningWindowManager
    let checkpoint: (@Sendable (DeviceCheckpoint) -> Void)?
    /// RegulatoryConfig (0 Indoor, 1 Outdoor, 2 IndoorOutdoor), as SetRegulatoryConfig set it.
    private(set) var regulatoryConfig: UInt8 = 0
    /// LocationCapability: IndoorOutdoor.
    static let locationCapability: UInt8 = 2

    init(failSafe: FailSafe, windows: CommissioningWindowManager, checkpoint: (@Sendable (DeviceCheckpoint) -> Void)?) {
        self.failSafe = failSafe
        self.windows = windows
        self.checkpoint = checkpoint
        super.init(
            .generalCommissioning,
            attributes: [
                A.breadcrumb, A.basicCommissioningInfo, A.regulatoryConfig, A.locationCapability,
                A.supportsConcurrentConnection,
            ])
    }

    override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute {
        case A.breadcrumb: .unsigned(failSafe.breadcrumb)
        case A.basicCommissioningInfo:
            Field.structure([
                (0, Field.uint(failSafe.expirySeconds)), (1, Field.uint(failSafe.maxCumulativeSeconds)),
            ])
        case A.regulatoryConfig: Field.uint(regulatoryConfig)
        case A.locationCapability: Field.uint(Self.locationCapability)
        case A.supportsConcurrentConnection: .bool(true)
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext) throws(StatusIB)
    {
        guard attribute == A.breadcrumb else { throw StatusIB(.unsupportedWrite) }
        guard case .replace(let value) = write, case .unsigned(let crumb) = value else {
            throw StatusIB(.invalidDataType)
        }
        failSafe.breadcrumb = crumb
        attributeChanged(A.breadcrumb)
    }

    override func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        switch command {
        case C.armFailSafe: return try armFailSafe(fields.element, context: context)
        case C.setRegulatoryConfig: return try setRegulatoryConfig(fields.element)
        case C.commissioningComplete: return try commissioningComplete(context: context)
        default: throw StatusIB(.unsupportedCommand)
        }
    }

    private func response(_ command: CommandID, _ status: FailSafe.Status) -> CommandResponse {
        Field.response(command, [(0, Field.uint(status.rawValue)), (1, .utf8(""))])
    }

    private func armFailSafe(_ fields: TLVElement, context: InteractionContext) throws(StatusIB) -> CommandResponse {
        let seconds: UInt16 = try Field.required(fields, 0)
        let crumb: UInt64 = try Field.required(fields, 1)
        let fabric = context.subject.fabricIndex
        let isPASE = context.subject.authMode == .pase
        let status = failSafe.arm(
            seconds: seconds, fabricIndex: isPASE && fabric == 0 ? nil : fabric,
            session: isPASE ? context.session : nil,
            otherAdminCommissioning: windows.isCommissioningOverPASE)
        if status == .ok, seconds > 0 {
            failSafe.breadcrumb = crumb
            attributeChanged(A.breadcrumb)
            checkpoint?(.armFailSafe)
        }
        return response(C.armFailSafeResponse, status)
    }

    private func setRegulatoryConfig(_ fields: TLVElement) throws(StatusIB) -> CommandResponse {
        let config: UInt8 = try Field.required(fields, 0)
        let country: String = try Field.required(fields, 1)
        let crumb: UInt64 = try Field.required(fields, 2)
        guard country.utf8.count == 2 else { throw StatusIB(.constraintError) }
        guard config <= 2 else { return response(C.setRegulatoryConfigResponse, .valueOutsideRange) }
        regulatoryConfig = config
        failSafe.breadcrumb = crumb
        allAttributesChanged()
        return response(C.setRegulatoryConfigResponse, .ok)
    }

    private func commissioningComplete(context: InteractionContext) throws(StatusIB) -> CommandResponse {
        let fabric = context.subject.fabricIndex
        let status: FailSafe.Status
        if context.subject.authMode == .pase {
            status = .invalidAuthentication
        } else if failSafe.isArmed {
            status = failSafe.belongs(to: fabric) ? .ok : .invalidAuthentication
        } else {
            status = .noFailSafe
        }
        if status == .ok {
            logger.notice("commissioning complete on fabric \(fabric)")
            checkpoint?(.commissioningCompleteReceived)
            // A commit that could not be written is a failure: the fail-safe stays armed and rolls back.
            guard failSafe.commit() else { throw StatusIB(.failure) }
            checkpoint?(.fabricCommitted)
        }
        return response(C.commissioningCompleteResponse, status)
    }
}
