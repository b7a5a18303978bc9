import MatterCore
import MatterCredentials
import MatterCrypto
import MatterStorage
import MatterTransport

/// What one commissioning attempt has learned and done so far: the steps fill it in order
/// (``Controller/attemptSteps``), and the rollback after a failure reads how far it got. Confined to
/// the controller's isolation.
final class CommissioningContext: CommissioningFlowContext {
    let request: CommissioningRequest
    let nodeID: NodeID
    /// Where checkpoints inside a stage are reported (the pending record's).
    let timeline: CommissioningTimeline?
    /// The device: the one discovery found, then the one PASE succeeded with.
    var target: CommissionableTarget?
    var pase: PASESession?
    var failSafe = FailSafeWindow()

    var info: CommissioningInfo?
    /// The fail-safe expiry ArmFailSafe asks for: the device's recommendation, else 60 s.
    var expiry: UInt16 = 60
    var pai: [UInt8]?
    var dac: [UInt8]?
    var attestationNonce: [UInt8]?
    var attestation: (elements: [UInt8], signature: [UInt8])?
    var verifier: DeviceAttestationVerifier?
    var verified: VerifiedDeviceAttestation?
    var operationalKey: P256PublicKey?
    var noc: MatterCertificate?

    /// The interrupted-commissioning record, and whether it was written (AddNOC may have reached the device).
    var pending: PendingCommissioning?
    var pendingRecorded = false
    /// The record's lock, held while this commissioning runs.
    var lock: CommissioningLock?
    var fabricIndex: UInt8?
    /// The background lookup of the operational record, while CASE is tried at the commissioning address.
    var lookup: OperationalLookup?
    var operational: OperationalLookup.Candidates = []
    var caseSession: Controller.OperationalSession?
    /// CommissioningComplete succeeded: undoing now means removing our fabric.
    var completed = false
    var deviceTypes: DeviceTypeReading?
    /// The node as written to the store, and the address it answered CASE on.
    var stored: (node: ControllerNode, address: String)?

    init(
        request: CommissioningRequest, nodeID: NodeID, target: CommissionableTarget? = nil,
        timeline: CommissioningTimeline? = nil
    ) {
        self.request = request
        self.nodeID = nodeID
        self.timeline = timeline
        self.target = target
    }

    /// A value an earlier step provides; an internal failure when it did not run.
    func value<T>(_ value: T?, _ name: String) throws(ControllerError) -> T {
        guard let value else { throw .internalFailure("commissioning has no \(name) yet (a stage did not run)") }
        return value
    }

    /// The PASE session (established by the `pase` step).
    func paseSession() throws(ControllerError) -> PASESession { try value(pase, "PASE session") }
}

/// Where a commissionable device was found.
struct CommissionableTarget: Sendable, CustomStringConvertible {
    let description: String
    let addresses: [UDPAddress]
    let mrp: MRPParameters
    /// True when the caller gave the address (so the operational address is the same).
    let isDirect: Bool
    /// The DNS-SD instance name (lower-cased), for a device found by browsing.
    let instanceName: String?
}

/// An established PASE session.
struct PASESession: Sendable {
    let session: SessionID
    let address: UDPAddress
    let attestationChallenge: [UInt8]
}

/// The values ReadCommissioningInfo needs.
struct CommissioningInfo: Sendable, CustomStringConvertible {
    let breadcrumb: UInt64
    let failSafeExpiryLengthSeconds: UInt16
    let regulatoryConfig: UInt8
    let locationCapability: UInt8
    let vendorID: VendorID
    let productID: ProductID

    /// LocationCapability, unless the device can be both indoor and outdoor: then its current
    /// RegulatoryConfig (the SDK's rule when the commissioner has no preference).
    var regulatoryChoice: UInt8 { locationCapability == 2 ? min(regulatoryConfig, 2) : locationCapability }

    var description: String {
        "VID \(vendorID) PID \(productID), fail-safe \(failSafeExpiryLengthSeconds) s, breadcrumb \(breadcrumb)"
    }
}

/// Device types read after commissioning (or why they could not be read).
struct DeviceTypeReading: Sendable {
    let list: [NodeDeviceType]
    let failure: String?

    var summary: String {
        if let failure { return "not read (\(failure))" }
        return list.map { "\($0.endpoint.rawValue):\(DeviceTypeNames.name(of: $0.deviceType))" }.joined(separator: ", ")
    }
}
