import MatterClusters
import MatterCore
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterSecureChannel
import MatterTLV

/// AdministratorCommissioning 0x003C on endpoint 0 (Basic feature): windows for further
/// administrators, over the node's ``CommissioningWindowManager``.
final class AdministratorCommissioningServer: RootClusterServer {
    typealias A = AttributeID.AdministratorCommissioning
    typealias C = CommandID.AdministratorCommissioning

    /// The cluster's status codes.
    enum Status: UInt8 {
        case busy = 2
        case pakeParameterError = 3
        case windowNotOpen = 4
    }

    /// FeatureMap: Basic (OpenBasicCommissioningWindow).
    static let basicFeature: UInt32 = 0x0001
    /// CommissioningTimeout bounds, seconds.
    static let timeoutRange: ClosedRange<UInt16> = 180...900

    let windows: CommissioningWindowManager
    let failSafe: FailSafe
    let fabrics: FabricTable

    init(windows: CommissioningWindowManager, failSafe: FailSafe, fabrics: FabricTable) {
        self.windows = windows
        self.failSafe = failSafe
        self.fabrics = fabrics
        super.init(
            .administratorCommissioning, attributes: [A.windowStatus, A.adminFabricIndex, A.adminVendorID],
            featureMap: Self.basicFeature)
    }

    override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute {
        case A.windowStatus:
            return Field.uint(windows.window.status)
        // Null unless an administrator opened the window: fabric 0 is the device itself (the control
        // plane's open-window), which has no fabric to name (spec 11.19.7.2/3).
        case A.adminFabricIndex:
            if case .enhanced(_, _, let fabric, _) = windows.window, fabric != 0 { return Field.uint(fabric) }
            return .null
        case A.adminVendorID:
            if case .enhanced(_, _, let fabric, let vendor) = windows.window, fabric != 0 { return Field.uint(vendor) }
            return .null
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        let fields = fields.element
        switch command {
        case C.openCommissioningWindow:
            try openCommissioningWindow(fields, context: context)
        case C.openBasicCommissioningWindow:
            let timeout: UInt16 = try Field.required(fields, 0)
            guard Self.timeoutRange.contains(timeout) else { throw StatusIB(.invalidCommand) }
            guard !windows.isOpen, !failSafe.isArmed else { throw StatusIB.cluster(Status.busy.rawValue) }
            windows.openBasic(timeoutSeconds: timeout)
        case C.revokeCommissioning:
            guard windows.isOpen else { throw StatusIB.cluster(Status.windowNotOpen.rawValue) }
            windows.close()
            if failSafe.isArmed { failSafe.expire(reason: "commissioning revoked") }
        default:
            throw StatusIB(.unsupportedCommand)
        }
        return nil
    }

    private func openCommissioningWindow(_ fields: TLVElement, context: InteractionContext) throws(StatusIB) {
        let timeout: UInt16 = try Field.required(fields, 0)
        let verifierBytes: [UInt8] = try Field.required(fields, 1)
        let discriminator: UInt16 = try Field.required(fields, 2)
        let iterations: UInt32 = try Field.required(fields, 3)
        let salt: [UInt8] = try Field.required(fields, 4)
        guard Self.timeoutRange.contains(timeout), discriminator <= 0xFFF else { throw StatusIB(.invalidCommand) }
        guard !windows.isOpen, !failSafe.isArmed else { throw StatusIB.cluster(Status.busy.rawValue) }
        let verifier: Spake2PlusPasscodeVerifier
        let pbkdf = PBKDFParameters(iterations: iterations, salt: salt)
        do {
            try pbkdf.validate()
            verifier = try Spake2PlusPasscodeVerifier(serialized: verifierBytes)
        } catch {
            throw StatusIB.cluster(Status.pakeParameterError.rawValue)
        }
        let fabric = context.subject.fabricIndex
        windows.openEnhanced(
            timeoutSeconds: timeout, credentials: PASEResponder.Credentials(verifier: verifier, pbkdf: pbkdf),
            discriminator: discriminator, adminFabric: fabric, adminVendor: fabrics[fabric]?.vendorID.rawValue ?? 0)
    }
}
