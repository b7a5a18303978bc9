import Foundation
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterTestSupport
import Testing

/// The devices of the committed test PKI (fixtures/pki): one DAC, key and CD per device type.
let testPKIDevices: [(name: String, productID: ProductID, deviceTypeID: UInt32)] = [
    ("on-off-light", ProductID(0x8001), 0x0100),
    ("dimmable-light", ProductID(0x8002), 0x0101),
    ("color-temperature-light", ProductID(0x8003), 0x010C),
    ("extended-color-light", ProductID(0x8004), 0x010D),
    ("on-off-plug", ProductID(0x8005), 0x010A),
    ("door-lock", ProductID(0x8006), 0x000A),
]

/// Generates the test PKI with this module's own code and checks it. When the environment variable
/// `MATTER_EMU_PKI_OUTPUT` names a directory, the set is also written there (scripts/gen-test-pki.sh uses this to
/// regenerate fixtures/pki).
@Suite("Test attestation PKI generation")
struct TestPKIGenerationTests {
    @Test("a full PKI (PAA, PAI, six DACs with CDs) is generated, accepted, and written when asked")
    func generate() throws {
        let cdKey = try sdkTestCDSigningKey()
        let authority = try TestAttestationAuthority.generate(
            vendorID: .testVendor1, validity: .noExpiry(fromYear: 2024), paaCommonName: "Matter Emulator Test PAA FFF1",
            paiCommonName: "Matter Emulator Test PAI FFF1")
        let verifier = try DeviceAttestationVerifier(
            trustStore: PAATrustStore(certificates: [authority.paa.derEncoded]))
        var devices:
            [(name: String, productID: ProductID, deviceTypeID: UInt32, credentials: DeviceAttestationCredentials)] = []
        for device in testPKIDevices {
            let credentials = try authority.issueDevice(
                productID: device.productID, deviceTypeID: device.deviceTypeID,
                commonName: "Matter Emulator Test DAC \(device.name)", certificationDeclarationKey: cdKey,
                certificateID: "ZIG20142ZB33\(hex4(device.productID.rawValue))-24", validity: .noExpiry(fromYear: 2024))
            try checkAccepted(credentials, vendorID: .testVendor1, productID: device.productID, verifier: verifier)
            devices.append((device.name, device.productID, device.deviceTypeID, credentials))
        }
        guard let output = ProcessInfo.processInfo.environment["MATTER_EMU_PKI_OUTPUT"], !output.isEmpty else { return }
        try write(authority: authority, devices: devices, to: URL(fileURLWithPath: output))
    }

    @Test("a PAA not scoped to a vendor signs a PAI of any vendor; its DACs are accepted; written when asked")
    func anyVendor() throws {
        let cdKey = try sdkTestCDSigningKey()
        let paaKey = try P256PrivateKey()
        let paa = try AttestationCertificate.makePAA(
            key: paaKey, commonName: "Matter Emulator Test PAA Any Vendor", vendorID: nil,
            validity: .noExpiry(fromYear: 2024))
        let verifier = try DeviceAttestationVerifier(trustStore: PAATrustStore(certificates: [paa.derEncoded]))
        for vendor in [VendorID(0x1217), VendorID(0x131B), .testVendor1] {
            let authority = try TestAttestationAuthority.forVendor(vendor, paa: paa, paaKey: paaKey)
            #expect(authority.pai.vendorID == vendor)
            let credentials = try authority.issueDevice(
                productID: ProductID(0x0042), deviceTypeID: 0x0302, certificationDeclarationKey: cdKey, vendorID: vendor
            )
            try checkAccepted(credentials, vendorID: vendor, productID: ProductID(0x0042), verifier: verifier)
        }
        // A PAA scoped to a vendor does not make PAIs of another.
        let scoped = try TestAttestationAuthority.generate()
        #expect(throws: CredentialsError.self) {
            try TestAttestationAuthority.forVendor(VendorID(0x1217), paa: scoped.paa, paaKey: scoped.paaKey)
        }
        guard let output = ProcessInfo.processInfo.environment["MATTER_EMU_PKI_OUTPUT"], !output.isEmpty else { return }
        let root = URL(fileURLWithPath: output)
        let files = FileManager.default
        try files.createDirectory(
            at: root.appendingPathComponent("paa-trust-store"), withIntermediateDirectories: true)
        try Data(paa.derEncoded).write(
            to: root.appendingPathComponent("paa-trust-store/Matter-Emulator-Test-PAA-AnyVendor-Cert.der"))
        try Data(PEM.encode(paa.derEncoded, label: PEM.certificateLabel).utf8).write(
            to: root.appendingPathComponent("paa-any-vendor-cert.pem"))
        let keyURL = root.appendingPathComponent("paa-any-vendor-key.pem")
        try Data(try PEM.encode(privateKey: paaKey).utf8).write(to: keyURL)
        try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyURL.path)
    }

    private func write(
        authority: TestAttestationAuthority,
        devices: [(
            name: String, productID: ProductID, deviceTypeID: UInt32, credentials: DeviceAttestationCredentials
        )],
        to root: URL
    ) throws {
        let files = FileManager.default
        func put(_ bytes: [UInt8], _ path: String, secret: Bool = false) throws {
            let url = root.appendingPathComponent(path)
            try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
            if secret { try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path) }
        }
        func pem(_ der: [UInt8]) -> [UInt8] { Array(PEM.encode(der, label: PEM.certificateLabel).utf8) }
        try? files.removeItem(at: root.appendingPathComponent("paa-trust-store/Matter-Emulator-Test-PAA-FFF1-Cert.der"))
        try? files.removeItem(at: root.appendingPathComponent("devices"))
        try put(authority.paa.derEncoded, "paa-trust-store/Matter-Emulator-Test-PAA-FFF1-Cert.der")
        try put(pem(authority.paa.derEncoded), "paa-cert.pem")
        try put(Array(try PEM.encode(privateKey: authority.paaKey).utf8), "paa-key.pem", secret: true)
        try put(authority.pai.derEncoded, "pai-cert.der")
        try put(pem(authority.pai.derEncoded), "pai-cert.pem")
        try put(Array(try PEM.encode(privateKey: authority.paiKey).utf8), "pai-key.pem", secret: true)
        var manifest: [[String: String]] = []
        for device in devices {
            let folder = "devices/\(device.name)"
            try put(device.credentials.dac.derEncoded, "\(folder)/dac-cert.der")
            try put(pem(device.credentials.dac.derEncoded), "\(folder)/dac-cert.pem")
            try put(
                Array(try PEM.encode(privateKey: device.credentials.dacKey).utf8), "\(folder)/dac-key.pem", secret: true
            )
            try put(device.credentials.certificationDeclaration, "\(folder)/cd.der")
            manifest.append([
                "type": device.name, "vendorID": "0xFFF1", "productID": "0x" + hex4(device.productID.rawValue),
                "deviceTypeID": "0x" + hex4(UInt16(device.deviceTypeID)), "directory": folder,
            ])
        }
        let json = try JSONSerialization.data(
            withJSONObject: ["devices": manifest], options: [.prettyPrinted, .sortedKeys])
        try put([UInt8](json) + [0x0A], "devices.json")
    }
}

/// Runs a full attestation exchange for `credentials` and returns the verifier's result.
@discardableResult
func checkAccepted(
    _ credentials: DeviceAttestationCredentials, vendorID: VendorID, productID: ProductID,
    verifier: DeviceAttestationVerifier
) throws -> VerifiedDeviceAttestation {
    let nonce = try SecureRandom.bytes(count: 32)
    let challenge = try SecureRandom.bytes(count: 16)
    let elements = credentials.attestationElements(nonce: nonce).tlvEncoded
    let signature = try AttestationSignature.sign(
        elements: elements, attestationChallenge: challenge, dacKey: credentials.dacKey)
    return try verifier.verify(
        DeviceAttestationInformation(
            attestationElements: elements, attestationSignature: signature.rawRepresentation,
            attestationChallenge: challenge, attestationNonce: nonce, dacCertificate: credentials.dac.derEncoded,
            paiCertificate: credentials.pai.derEncoded, vendorID: vendorID, productID: productID),
        at: .now)
}

func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
}
