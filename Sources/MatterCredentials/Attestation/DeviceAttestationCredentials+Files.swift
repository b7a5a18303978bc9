import Foundation

extension DeviceAttestationCredentials {
    /// Loads one device's credentials from a test PKI directory laid out like `fixtures/pki`:
    /// `pai-cert.der`, `devices/<device>/dac-cert.der`, `devices/<device>/dac-key.pem` (SEC1 or PKCS#8 PEM) and
    /// `devices/<device>/cd.der`.
    package static func load(pkiDirectory: String, device: String) throws(CredentialsError)
        -> DeviceAttestationCredentials
    {
        let root = URL(fileURLWithPath: pkiDirectory)
        func read(_ path: String) throws(CredentialsError) -> [UInt8] {
            let url = root.appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw .invalidArgument("cannot read \(url.path)")
            }
            return [UInt8](data)
        }
        let folder = "devices/\(device)"
        return try DeviceAttestationCredentials(
            dac: try AttestationCertificate(der: try read("\(folder)/dac-cert.der")),
            dacKey: try PEM.privateKey(String(decoding: try read("\(folder)/dac-key.pem"), as: UTF8.self)),
            pai: try AttestationCertificate(der: try read("pai-cert.der")),
            certificationDeclaration: try read("\(folder)/cd.der"))
    }
}
