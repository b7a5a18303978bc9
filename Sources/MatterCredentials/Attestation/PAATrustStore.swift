import Foundation

/// The Product Attestation Authorities a commissioner trusts, looked up by subject key identifier (= the PAI's
/// authority key identifier), like the SDK's file trust store.
public struct PAATrustStore: Sendable {
    /// The trusted PAAs.
    package let certificates: [AttestationCertificate]
    /// Files of a directory that were skipped because they are not DER certificates with an EC P-256 key.
    package let skippedFiles: [String]

    /// A store holding the given PAA certificates (DER).
    public init(certificates: [[UInt8]]) throws(CredentialsError) {
        var parsed: [AttestationCertificate] = []
        for der in certificates { parsed.append(try AttestationCertificate(der: der)) }
        self.certificates = parsed
        skippedFiles = []
    }

    /// A store holding every `*.der` certificate of `directory` (not recursive). Files that do not parse are
    /// listed in ``skippedFiles``. Throws if the directory cannot be read.
    public init(directory: String) throws(CredentialsError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw .invalidArgument("cannot read PAA trust store directory \(directory): \(error.localizedDescription)")
        }
        var parsed: [AttestationCertificate] = []
        var skipped: [String] = []
        for name in names where name.lowercased().hasSuffix(".der") {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path),
                let certificate = try? AttestationCertificate(der: [UInt8](data))
            else {
                skipped.append(name)
                continue
            }
            parsed.append(certificate)
        }
        certificates = parsed
        skippedFiles = skipped
    }

    /// The PAA whose subject key identifier is `keyIdentifier`.
    package func certificate(subjectKeyIdentifier keyIdentifier: [UInt8]) -> AttestationCertificate? {
        certificates.first { $0.subjectKeyIdentifier == keyIdentifier }
    }
}
