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
}
