import FuzzSupport
import MatterCredentials

@main
enum FuzzX509 {
    static func main() { runLibFuzzer(fuzzX509) }
}

/// The key SDK controllers trust for test certification declarations (a verification that can succeed).
private let cdSigningKey = try? CertificationDeclarationSigningKey.sdkTest()

/// Fuzz target for MatterCredentials' DER decoders, on what a commissioner receives from a device during
/// attestation and CSR: X.509 certificates (as Matter operational certificates and as PAA/PAI/DAC with their
/// profile checks), the PKCS#10 CSR, and the CMS envelope of a certification declaration.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzX509(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzInput(data, size)

    if let certificate = try? MatterCertificate(der: bytes) {
        // Accepted DER is reproduced byte for byte from the Matter form.
        let again = try? certificate.derEncoded
        fuzzCheck(again == bytes, "DER → Matter → DER is not the same bytes: \(hex(again ?? []))")
        checkRoundTrip(
            certificate, name: "MatterCertificate TLV", encode: { $0.tlvEncoded },
            decode: MatterCertificate.init(tlv:))
    }
    if let certificate = try? AttestationCertificate(der: bytes) {
        for kind in [AttestationCertificate.Kind.paa, .pai, .dac] { _ = certificate.profileViolation(as: kind) }
        _ = certificate.isSigned(by: certificate.publicKey)
        _ = certificate.basicConstraints
        _ = certificate.keyUsage
        fuzzCheck(certificate.derEncoded == bytes, "AttestationCertificate does not keep its DER")
    }
    if let request = try? CertificateSigningRequest(der: bytes) {
        fuzzCheck(request.derEncoded == bytes, "CertificateSigningRequest does not keep its DER")
    }
    if let envelope = try? SignedCertificationDeclaration(cms: bytes) {
        _ = try? envelope.declaration()
        if let cdSigningKey { _ = envelope.isSignatureValid(publicKey: cdSigningKey.publicKey) }
    }
    return 0
}
