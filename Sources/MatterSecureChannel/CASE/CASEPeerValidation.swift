import MatterCore
import MatterCredentials
import MatterCrypto

/// Checks the chain and the signature a CASE peer presents, against the local fabric's stored root.
enum CASEPeerValidation {
    /// Validates NOC[→ICAC]→RCAC (our RCAC, never one the peer sends) and the fabric ID, then the
    /// peer's signature over `signedData` with the NOC's key. Returns the peer's identity.
    static func validate(
        noc: [UInt8], icac: [UInt8]?, signature: [UInt8], signedData: [UInt8], fabric: CASECredentials,
        time: CertificateValidationTime
    ) throws(SecureChannelError) -> OperationalIdentity {
        let identity: OperationalIdentity
        do {
            let rcac = try MatterCertificate(tlv: fabric.rcac)
            let intermediate: MatterCertificate? = if let icac { try MatterCertificate(tlv: icac) } else { nil }
            identity = try OperationalCertificateValidator.validateChain(
                noc: try MatterCertificate(tlv: noc), icac: intermediate, rcac: rcac, at: time)
        } catch {
            throw .invalidCredentials("\(error)")
        }
        guard identity.fabricID == fabric.fabricID else {
            throw .invalidCredentials("peer NOC is for fabric \(identity.fabricID), expected \(fabric.fabricID)")
        }
        let valid: Bool
        do {
            valid = identity.publicKey.isValidSignature(
                try P256Signature(rawRepresentation: signature), for: signedData)
        } catch {
            throw .invalidCredentials("malformed signature: \(error)")
        }
        guard valid else { throw .invalidCredentials("the peer's signature does not verify with its NOC key") }
        return identity
    }
}
