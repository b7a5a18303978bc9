import MatterCore
import MatterOnboarding
import MatterTestSupport

/// Published onboarding-payload vectors (SDK TestQRCode.cpp / TestHelpers.h / TestManualCode.cpp,
/// matter.js and rs-matter tests), as listed in the project's onboarding spec digest.
enum OnboardingVectors {
    struct Base38Vector: Sendable {
        let bytes: [UInt8]
        let text: String
    }

    static let base38: [Base38Vector] = [
        .init(bytes: [0x0A], text: "A0"),
        .init(bytes: [0x0A, 0x0A], text: "OT10"),
        .init(bytes: [0x0A, 0x0A, 0x0A], text: "-N.B0"),
        .init(bytes: [0xFF], text: "R6"),
        .init(bytes: [0xFF, 0xFF], text: "NE71"),
        .init(bytes: [0xFF, 0xFF, 0xFF], text: "PLS18"),
        .init(bytes: [0x0A, 0x0A, 0x00], text: "OT100"),
        .init(bytes: Array("Hello World!".utf8), text: "KKHF3W2S013OPM3EJX11"),
    ]

    struct QRVector: Sendable {
        let code: String
        let payload: SetupPayload
        let source: String
    }

    static func qrPayload(
        vid: UInt16, pid: UInt16, caps: UInt8, discriminator: UInt16, passcode: UInt32,
        serialNumber: SetupPayload.SerialNumber? = nil
    ) -> SetupPayload {
        SetupPayload(
            vendorID: VendorID(vid), productID: ProductID(pid), commissioningFlow: .standard,
            discoveryCapabilities: DiscoveryCapabilities(rawValue: caps), discriminator: .long(discriminator),
            passcode: passcode, serialNumber: serialNumber)
    }

    static let qrCodes: [QRVector] = [
        .init(
            code: "MT:M5L90MP500K64J00000",
            payload: qrPayload(vid: 12, pid: 1, caps: 0x01, discriminator: 128, passcode: 2048),
            source: "SDK TestHelpers.h default"),
        .init(
            code: "MT:-24J0AFN00KA0648G00",
            payload: qrPayload(vid: 0xFFF1, pid: 0x8001, caps: 0x04, discriminator: 3840, passcode: 20_202_021),
            source: "SDK all-clusters-app / rs-matter"),
        .init(
            code: "MT:-24J042C00KA0648G00",
            payload: qrPayload(vid: 0xFFF1, pid: 0x8001, caps: 0x02, discriminator: 3840, passcode: 20_202_021),
            source: "matter.js chip-testing"),
        .init(
            code: "MT:Y.K9042C00KA0648G00",
            payload: qrPayload(vid: 0xFFF1, pid: 0x8000, caps: 0x02, discriminator: 3840, passcode: 20_202_021),
            source: "SDK example apps (BLE)"),
        .init(
            code: "MT:Y.K90AFN00KA0648G00",
            payload: qrPayload(vid: 0xFFF1, pid: 0x8000, caps: 0x04, discriminator: 3840, passcode: 20_202_021),
            source: "computed"),
        .init(
            code: "MT:YNJV7VSC00CMVH7SR00",
            payload: qrPayload(vid: 9050, pid: 65279, caps: 0x02, discriminator: 2976, passcode: 34_567_890),
            source: "matter.js + rs-matter"),
        .init(
            code: "MT:-24J0AFN00KA064IJ3P0IXZB0DK5N1K8SQ1RYCU1-A40",
            payload: qrPayload(
                vid: 0xFFF1, pid: 0x8001, caps: 0x04, discriminator: 3840, passcode: 20_202_021,
                serialNumber: .string("1234567890")),
            source: "rs-matter (serial number TLV)"),
    ]

    /// Raw 11-byte payloads of two of the codes above.
    static let rawPayloads: [(code: String, hex: String)] = [
        ("MT:-24J0AFN00KA0648G00", "88ff0f008400e04b846802"),
        ("MT:M5L90MP500K64J00000", "6000080020001000100000"),
    ]

    /// matter.js vector whose optional data (`01 02 03`) is not TLV: the SDK rejects it.
    static let sdkRejectedQRCode = "MT:YNJV7VSC00CMVH7E4810AK00"
    /// matter.js multi-payload example; its second part is the code above.
    static let matterJSMultiPayload = "MT:YNJV7VSC00CMVH7SR00*YNJV7VSC00CMVH7E4810AK00"

    struct ManualVector: Sendable {
        let code: String
        let shortDiscriminator: UInt8
        /// A long discriminator whose top 4 bits give the short one (the digest's "long" column).
        let longDiscriminator: UInt16
        let passcode: UInt32
        let vendorProduct: (vid: UInt16, pid: UInt16)?
        /// False for codec-only vectors whose passcode fails validation.
        let passcodeValid: Bool
        let source: String
    }

    static let manualCodes: [ManualVector] = [
        .init(
            code: "34970112332", shortDiscriminator: 15, longDiscriminator: 3840, passcode: 20_202_021,
            vendorProduct: nil, passcodeValid: true, source: "SDK examples"),
        .init(
            code: "749701123365521327687", shortDiscriminator: 15, longDiscriminator: 3840, passcode: 20_202_021,
            vendorProduct: (65521, 32768), passcodeValid: true, source: "computed"),
        .init(
            code: "26318621095", shortDiscriminator: 11, longDiscriminator: 2976, passcode: 34_567_890,
            vendorProduct: nil, passcodeValid: true, source: "matter.js + rs-matter"),
        .init(
            code: "00852607537", shortDiscriminator: 0, longDiscriminator: 10, passcode: 12_345_678,
            vendorProduct: nil, passcodeValid: false, source: "matter.js"),
        .init(
            code: "16043714310", shortDiscriminator: 7, longDiscriminator: 2001, passcode: 23_456_789,
            vendorProduct: nil, passcodeValid: true, source: "matter.js"),
        .init(
            code: "00876800071", shortDiscriminator: 0, longDiscriminator: 250, passcode: 123_456,
            vendorProduct: nil, passcodeValid: true, source: "rs-matter"),
        .init(
            code: "23610875350", shortDiscriminator: 10, longDiscriminator: 2560, passcode: 123_456_780,
            vendorProduct: nil, passcodeValid: false, source: "SDK TestManualCode"),
        .init(
            code: "636108753545367145260", shortDiscriminator: 10, longDiscriminator: 2560, passcode: 123_456_780,
            vendorProduct: (45367, 14526), passcodeValid: false, source: "SDK TestManualCode"),
        .init(
            code: "529276236304562000322", shortDiscriminator: 5, longDiscriminator: 1280, passcode: 38_728_284,
            vendorProduct: (4562, 32), passcodeValid: true, source: "SDK parser test"),
    ]
}
