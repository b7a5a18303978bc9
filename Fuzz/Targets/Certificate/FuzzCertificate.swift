import FuzzSupport
import MatterCredentials

@main
enum FuzzCertificate {
    static func main() { runLibFuzzer(fuzzCertificate) }
}

/// Fuzz target for MatterCredentials' Matter-TLV decoders: operational certificates (RCAC/ICAC/NOC, as received
/// in AddTrustedRootCertificate, AddNOC and CASE) with their conversion to X.509 DER and back, the root checks of
/// the chain validator, and the TLV structures of attestation (AttestationElements, NOCSRElements, the
/// certification declaration's content).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzInput(data, size)

    if let certificate = try? MatterCertificate(tlv: bytes) {
        _ = certificate.basicConstraints
        _ = certificate.keyUsage
        _ = certificate.extendedKeyUsage
        _ = certificate.subject.nodeID
        _ = certificate.subject.fabricID
        _ = certificate.subject.caseAuthenticatedTags
        checkRoundTrip(
            certificate, name: "MatterCertificate TLV", encode: { $0.tlvEncoded },
            decode: MatterCertificate.init(tlv:))
        // TLV → DER → TLV must give the same certificate ("convertible byte for byte"); the DER form may only be
        // refused as a whole (a field DER cannot carry) or for its size.
        if let der = try? certificate.derEncoded {
            do {
                let back = try MatterCertificate(der: der)
                fuzzCheck(
                    sameDecoded(back, certificate),
                    """
                    TLV → DER → TLV changed the certificate:
                      tlv  \(hex(certificate.tlvEncoded))
                      back \(hex(back.tlvEncoded))
                    """)
            } catch .certificateTooLarge {
                // The DER limit (600) is checked on its own: a 400-byte TLV can expand past it.
            } catch {
                fuzzFailure("our own DER for an accepted TLV certificate was refused: \(error); DER \(hex(der))")
            }
        }
        _ = try? OperationalCertificateValidator.validateRoot(certificate, at: .unavailable)
    }
    if let elements = try? AttestationElements(tlv: bytes) {
        checkRoundTrip(
            elements, name: "AttestationElements", encode: { $0.tlvEncoded },
            decode: AttestationElements.init(tlv:))
    }
    if let elements = try? NOCSRElements(tlv: bytes) {
        checkRoundTrip(elements, name: "NOCSRElements", encode: { $0.tlvEncoded }, decode: NOCSRElements.init(tlv:))
    }
    if let declaration = try? CertificationDeclaration(tlv: bytes) {
        checkRoundTrip(
            declaration, name: "CertificationDeclaration", encode: { $0.tlvEncoded },
            decode: CertificationDeclaration.init(tlv:))
    }
    return 0
}
