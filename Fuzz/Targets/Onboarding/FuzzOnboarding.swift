import FuzzSupport
import MatterOnboarding

@main
enum FuzzOnboarding {
    static func main() { runLibFuzzer(fuzzOnboarding) }
}

/// Fuzz target for MatterOnboarding: the input as text (invalid UTF-8 repaired) through the code parser that
/// picks a format, the `MT:` QR parser and the manual-code parser, and the input's raw bytes as a decoded QR
/// payload (11 fixed bytes, then optional TLV data). Whatever parses is encoded again (without validation) and
/// must parse back to the same payload; validation must never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOnboarding(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzInput(data, size)
    let text = String(decoding: bytes, as: UTF8.self)

    if let parsed = try? OnboardingPayloadParser.parse(text) {
        fuzzCheck(parsed.payloads.first == parsed.payload, "ParsedCode.payload is not payloads[0]")
        for payload in parsed.payloads { exercise(payload) }
    }
    if let payloads = try? SetupQRCode.parse(text) {
        fuzzCheck(!payloads.isEmpty, "SetupQRCode.parse returned no payload")
        for payload in payloads { exercise(payload) }
        checkRoundTrip(
            payloads, name: "QR code",
            encode: { Array(try SetupQRCode.encode($0, validating: false).utf8) },
            decode: { bytes throws(OnboardingError) in
                try SetupQRCode.parse(String(decoding: bytes, as: UTF8.self))
            })
    }
    if let payload = try? ManualPairingCode.parse(text) {
        exercise(payload)
        checkRoundTrip(
            payload, name: "manual code",
            encode: { Array(try ManualPairingCode.encode($0, validating: false).utf8) },
            decode: { bytes throws(OnboardingError) in
                try ManualPairingCode.parse(String(decoding: bytes, as: UTF8.self))
            })
        if let code = try? ManualPairingCode.encode(payload, validating: false) {
            _ = ManualPairingCode.formatted(code)
        }
    }
    if let decoded = try? Base38.decode(text) {
        let encoded = Base38.encode(decoded)
        fuzzCheck((try? Base38.decode(encoded)) == decoded, "Base38 round trip failed for \(hex(decoded))")
    }
    if let payload = try? SetupQRCode.payload(fromBytes: bytes) {
        exercise(payload)
        checkRoundTrip(
            payload, name: "QR payload bytes", encode: { try SetupQRCode.bytes(of: $0, validating: false) },
            decode: SetupQRCode.payload(fromBytes:))
    }
    return 0
}

/// Everything a parsed payload is used for: validation in both modes and its descriptions.
private func exercise(_ payload: SetupPayload) {
    _ = payload.isValid(.produce)
    _ = payload.isValid(.consume)
    _ = payload.hasOptionalData
    _ = String(describing: payload)
}
