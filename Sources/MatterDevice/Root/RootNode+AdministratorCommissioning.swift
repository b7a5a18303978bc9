import MatterClusters
import MatterCore
import MatterCrypto
import MatterInteraction
import MatterSecureChannel
import MatterTLV

/// AdministratorCommissioning (0x003C): windows for further administrators.
extension RootNode {
    enum AdminStatus {
        static let busy: UInt8 = 2
        static let pakeParameterError: UInt8 = 3
        static let windowNotOpen: UInt8 = 4
    }

    func readAdministratorCommissioning(_ attribute: AttributeID) throws(StatusIB) -> TLVValue {
        switch attribute.rawValue {
        case 0x0000: return Field.uint(window.status)
        case 0x0001:
            if case .enhanced(_, _, let fabric, _) = window { return Field.uint(fabric) }
            return .null
        case 0x0002:
            if case .enhanced(_, _, _, let vendor) = window { return Field.uint(vendor) }
            return .null
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    func invokeAdministratorCommissioning(_ command: CommandID, fields: TLVElement, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        typealias C = CommandID.AdministratorCommissioning
        switch command {
        case C.openCommissioningWindow:
            let timeout: UInt16 = try Field.required(fields, 0)
            let verifierBytes: [UInt8] = try Field.required(fields, 1)
            let discriminator: UInt16 = try Field.required(fields, 2)
            let iterations: UInt32 = try Field.required(fields, 3)
            let salt: [UInt8] = try Field.required(fields, 4)
            guard (180...900).contains(timeout), discriminator <= 0xFFF else { throw StatusIB(.invalidCommand) }
            guard !window.isOpen, failSafe == nil else { throw StatusIB.cluster(AdminStatus.busy) }
            let verifier: Spake2PlusPasscodeVerifier
            let pbkdf = PBKDFParameters(iterations: iterations, salt: salt)
            do {
                try pbkdf.validate()
                verifier = try Spake2PlusPasscodeVerifier(serialized: verifierBytes)
            } catch {
                throw StatusIB.cluster(AdminStatus.pakeParameterError)
            }
            let fabric = fabricIndex(of: context.session)
            let vendor = fabrics[fabric]?.vendorID.rawValue ?? 0
            window = .enhanced(deadline: clock.nowMilliseconds() + UInt64(timeout) * 1000, discriminator: discriminator,
                               adminFabric: fabric, adminVendor: vendor)
            pase.credentials = PASEResponder.Credentials(verifier: verifier, pbkdf: pbkdf)
            log.notice("enhanced commissioning window open for \(timeout) s (discriminator \(discriminator))")
            rearmTimer()
            onChange?(.windowChanged)
            changed(.administratorCommissioning, nil)
            return nil
        case C.openBasicCommissioningWindow:
            let timeout: UInt16 = try Field.required(fields, 0)
            guard (180...900).contains(timeout) else { throw StatusIB(.invalidCommand) }
            guard !window.isOpen, failSafe == nil else { throw StatusIB.cluster(AdminStatus.busy) }
            openBasicWindow(timeoutSeconds: timeout)
            return nil
        case C.revokeCommissioning:
            guard window.isOpen else { throw StatusIB.cluster(AdminStatus.windowNotOpen) }
            closeWindow()
            if failSafe != nil { expireFailSafe(reason: "commissioning revoked") }
            return nil
        default:
            throw StatusIB(.unsupportedCommand)
        }
    }
}
