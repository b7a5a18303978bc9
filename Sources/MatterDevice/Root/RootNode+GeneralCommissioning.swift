import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTransport

/// GeneralCommissioning (0x0030): ArmFailSafe, SetRegulatoryConfig, CommissioningComplete.
extension RootNode {
    enum CommissioningErrorCode {
        static let ok: UInt8 = 0
        static let valueOutsideRange: UInt8 = 1
        static let invalidAuthentication: UInt8 = 2
        static let noFailSafe: UInt8 = 3
        static let busyWithOtherAdmin: UInt8 = 4
    }

    func readGeneralCommissioning(_ attribute: AttributeID) throws(StatusIB) -> TLVValue {
        switch attribute.rawValue {
        case 0x0000: .unsigned(breadcrumb)
        case 0x0001: Field.structure([(0, Field.uint(configuration.failSafeExpirySeconds)),
                                      (1, Field.uint(configuration.maxCumulativeFailSafeSeconds))])
        case 0x0002: Field.uint(regulatoryConfig)
        case 0x0003: Field.uint(UInt8(2))  // IndoorOutdoor
        case 0x0004: .bool(true)
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    func invokeGeneralCommissioning(_ command: CommandID, fields: TLVElement, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        let fabric = fabricIndex(of: context.session)
        switch command {
        case CommandID.GeneralCommissioning.armFailSafe:
            let seconds: UInt16 = try Field.required(fields, 0)
            let crumb: UInt64 = try Field.required(fields, 1)
            let isPASE = context.subject.authMode == .pase
            let code = armFailSafe(seconds: seconds, fabricIndex: isPASE ? (fabric == 0 ? nil : fabric) : fabric,
                                   session: isPASE ? context.session : nil)
            if code == CommissioningErrorCode.ok, seconds > 0 {
                breadcrumb = crumb
                changed(.generalCommissioning, AttributeID.GeneralCommissioning.breadcrumb)
                checkpoint?(.armFailSafe)
            }
            return Field.response(CommandID.GeneralCommissioning.armFailSafeResponse, [(0, Field.uint(code)), (1, .utf8(""))])
        case CommandID.GeneralCommissioning.setRegulatoryConfig:
            let config: UInt8 = try Field.required(fields, 0)
            let country: String = try Field.required(fields, 1)
            let crumb: UInt64 = try Field.required(fields, 2)
            guard country.utf8.count == 2 else { throw StatusIB(.constraintError) }
            guard config <= 2 else {
                return Field.response(CommandID.GeneralCommissioning.setRegulatoryConfigResponse,
                                      [(0, Field.uint(CommissioningErrorCode.valueOutsideRange)), (1, .utf8(""))])
            }
            regulatoryConfig = config
            breadcrumb = crumb
            changed(.generalCommissioning, nil)
            return Field.response(CommandID.GeneralCommissioning.setRegulatoryConfigResponse,
                                  [(0, Field.uint(CommissioningErrorCode.ok)), (1, .utf8(""))])
        case CommandID.GeneralCommissioning.commissioningComplete:
            let code: UInt8
            if context.subject.authMode == .pase {
                code = CommissioningErrorCode.invalidAuthentication
            } else if let failSafe {
                code = failSafe.fabricIndex == fabric || failSafe.addedFabric == fabric
                    ? CommissioningErrorCode.ok : CommissioningErrorCode.invalidAuthentication
            } else {
                code = CommissioningErrorCode.noFailSafe
            }
            if code == CommissioningErrorCode.ok {
                log.notice("commissioning complete on fabric \(fabric)")
                checkpoint?(.commissioningCompleteReceived)
                // A commit that could not be written is a failure: the fail-safe stays armed and rolls back.
                guard commitFailSafe() else { throw StatusIB(.failure) }
                checkpoint?(.fabricCommitted)
            }
            return Field.response(CommandID.GeneralCommissioning.commissioningCompleteResponse,
                                  [(0, Field.uint(code)), (1, .utf8(""))])
        default:
            throw StatusIB(.unsupportedCommand)
        }
    }
}
