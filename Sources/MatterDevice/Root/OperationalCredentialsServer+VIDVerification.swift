import MatterClusters
import MatterCore
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTransport

/// Vendor ID verification (Matter 1.4.2+, OperationalCredentials SetVIDVerificationStatement 0x0C and
/// SignVIDVerificationRequest 0x0D): an administrator sets its fabric's VendorID, VID verification
/// statement and VVSC; anyone with Administer can ask the device to prove, with the fabric's
/// operational key, that it holds that fabric as the Fabrics attribute describes it.
extension OperationalCredentialsServer {
    /// FabricBindingVersion of the VendorFabricBindingMessage and VIDVerificationTBS (version 1).
    static let fabricBindingVersion: UInt8 = 1
    /// Sizes the specification fixes.
    static let vidVerificationStatementSize = 85
    static let vidClientChallengeSize = 32

    /// SetVIDVerificationStatement, fabric-scoped: at least one field; VendorID a real vendor's
    /// (1...0xFFF4); a statement of 85 bytes (empty clears it); a VVSC of at most 400 bytes (empty
    /// clears it), only on a fabric without an ICAC. Part of a pending fabric it is committed with it;
    /// otherwise it is stored at once.
    func setVIDVerificationStatement(_ fields: TLVElement, context: InteractionContext) throws(StatusIB) {
        let vendorID: UInt16? = try Field.optional(fields, 0)
        let statement: [UInt8]? = try Field.optional(fields, 1)
        let vvsc: [UInt8]? = try Field.optional(fields, 2)
        guard vendorID != nil || statement != nil || vvsc != nil else { throw StatusIB(.invalidCommand) }
        if let vendorID, vendorID == 0 || vendorID > 0xFFF4 { throw StatusIB(.constraintError) }
        if let statement, !statement.isEmpty, statement.count != Self.vidVerificationStatementSize {
            throw StatusIB(.constraintError)
        }
        if let vvsc, vvsc.count > 400 { throw StatusIB(.constraintError) }
        let index = context.subject.fabricIndex
        guard var fabric = fabrics[index] else { throw StatusIB(.unsupportedAccess) }
        if let vvsc, !vvsc.isEmpty, fabric.icac != nil { throw StatusIB(.invalidCommand) }
        if let vendorID { fabric.vendorID = VendorID(vendorID) }
        if let statement { fabric.vidVerificationStatement = statement.isEmpty ? nil : statement }
        if let vvsc { fabric.vvsc = vvsc.isEmpty ? nil : vvsc }
        fabrics[index] = fabric
        if failSafe.addedFabric != index, failSafe.context?.updatedFabric?.index != index,
            !fabrics.persist(fabrics: [index])
        {
            throw StatusIB(.failure)
        }
        attributesChanged([A.fabrics, A.nocs])
    }

    /// SignVIDVerificationRequest: signs VIDVerificationTBS with fabric `FabricIndex`'s operational key:
    /// version ‖ ClientChallenge ‖ the session's attestation challenge ‖ fabric index ‖
    /// VendorFabricBindingMessage (version ‖ root public key ‖ fabric ID ‖ vendor ID, big-endian)
    /// [‖ VID verification statement].
    func signVIDVerificationRequest(_ fields: TLVElement, context: InteractionContext) throws(StatusIB)
        -> CommandResponse
    {
        let index: UInt8 = try Field.required(fields, 0)
        let challenge: [UInt8] = try Field.required(fields, 1)
        guard index != 0, index != 0xFF, challenge.count == Self.vidClientChallengeSize else {
            throw StatusIB(.constraintError)
        }
        guard let fabric = fabrics[index] else { throw StatusIB(.constraintError) }
        guard let attestationChallenge = sessions.attestationChallenge(context.session) else {
            throw StatusIB(.failure)
        }
        let message = Self.vidVerificationTBS(
            clientChallenge: challenge, attestationChallenge: attestationChallenge, fabric: fabric)
        let signature: [UInt8]
        do {
            signature = try P256PrivateKey(rawRepresentation: fabric.operationalKey).signature(for: message)
                .rawRepresentation
        } catch {
            throw StatusIB(.failure)
        }
        return Field.response(
            .OperationalCredentials.signVIDVerificationResponse,
            [(0, Field.uint(index)), (1, Field.uint(Self.fabricBindingVersion)), (2, .bytes(signature))])
    }

    /// VIDVerificationTBS of `fabric` (Matter 1.4.2 §6.4.10).
    static func vidVerificationTBS(clientChallenge: [UInt8], attestationChallenge: [UInt8], fabric: DeviceFabric)
        -> [UInt8]
    {
        var bytes = [fabricBindingVersion] + clientChallenge + attestationChallenge + [fabric.index]
        bytes.append(fabricBindingVersion)
        bytes += fabric.rootPublicKey
        bytes += withUnsafeBytes(of: fabric.fabricID.rawValue.bigEndian, Array.init)
        bytes += withUnsafeBytes(of: fabric.vendorID.rawValue.bigEndian, Array.init)
        bytes += fabric.vidVerificationStatement ?? []
        return bytes
    }
}
