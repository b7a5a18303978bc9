import Foundation
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDataModel

extension VirtualDevice {
    /// The committed test DAC of `preset` in the PKI directory (`devices/NAME`, under its name or an alias), or
    /// else one issued now by the directory's test PAI, with a certification declaration for the preset's
    /// product and device type signed by the directory's CD key.
    static func testAttestation(for preset: DevicePreset, pkiDirectory: String) throws(DeviceError)
        -> DeviceAttestationCredentials
    {
        let names = [preset.cliName] + DevicePreset.aliases.filter { $0.value == preset.cliName }.map(\.key).sorted()
        if let name = names.first(where: {
            FileManager.default.fileExists(atPath: pkiDirectory + "/devices/" + $0 + "/dac-cert.der")
        }) {
            do {
                return try DeviceAttestationCredentials.load(pkiDirectory: pkiDirectory, device: name)
            } catch {
                throw .attestation("\(error) (test PKI directory: \(pkiDirectory))")
            }
        }
        let authority = try Fleet.loadAuthority(pkiDirectory)
        do {
            let cdKey = try PEM.privateKey(
                try String(contentsOfFile: pkiDirectory + "/cd-signing-key.pem", encoding: .utf8))
            return try authority.issueDevice(
                productID: preset.productID, deviceTypeID: preset.deviceType.id.rawValue,
                commonName: "Matter Emulator Test DAC \(preset.cliName)", certificationDeclarationKey: cdKey)
        } catch {
            throw .attestation("issuing a test DAC for \(preset.cliName) from \(pkiDirectory): \(error)")
        }
    }

    /// A twin's attestation, made at start: a PAI for the recording's Vendor ID under the PKI directory's
    /// any-vendor PAA (`paa-any-vendor-cert.pem`, `paa-any-vendor-key.pem`), a DAC for its Product ID, and a
    /// certification declaration for both and its primary device type, signed by the directory's CD key.
    static func twinAttestation(for twin: NodeTwin, pkiDirectory: String) throws(DeviceError)
        -> DeviceAttestationCredentials
    {
        do {
            func read(_ name: String) throws -> String {
                try String(contentsOfFile: pkiDirectory + "/" + name, encoding: .utf8)
            }
            let authority = try TestAttestationAuthority.forVendor(
                twin.vendorID,
                paa: try AttestationCertificate(
                    der: try PEM.decode(try read("paa-any-vendor-cert.pem"), label: "CERTIFICATE")),
                paaKey: try PEM.privateKey(try read("paa-any-vendor-key.pem")))
            return try authority.issueDevice(
                productID: twin.productID, deviceTypeID: twin.primaryDeviceType.id.rawValue,
                commonName: "Matter Emulator Test DAC twin",
                certificationDeclarationKey: try PEM.privateKey(
                    try read("cd-signing-key.pem")), vendorID: twin.vendorID)
        } catch {
            throw .attestation("issuing a test DAC for the twin from \(pkiDirectory): \(error)")
        }
    }
}
