/// The single entry point for a code a user typed or scanned: decides between a QR code and a
/// manual pairing code and parses it.
public enum OnboardingPayloadParser {
    /// Which kind of code was recognised.
    public enum Format: Sendable, Hashable, CustomStringConvertible {
        case qrCode
        case manualPairingCode

        public var description: String {
            switch self {
            case .qrCode: "QR code"
            case .manualPairingCode: "manual pairing code"
            }
        }
    }

    /// A parsed code: its format and its payloads (one, or several for a multi-device QR code).
    public struct ParsedCode: Hashable, Sendable {
        public let format: Format
        /// The first (often the only) payload.
        public let payload: SetupPayload
        /// Every payload in order, `payload` first; never empty.
        public let payloads: [SetupPayload]

        init(format: Format, first: SetupPayload, rest: [SetupPayload] = []) {
            self.format = format
            self.payload = first
            self.payloads = [first] + rest
        }
    }

    /// Parses `text` as a QR code if it contains `MT:` (see ``SetupQRCode/parse(_:)``), otherwise as
    /// a manual pairing code if it holds digits and no letters (see ``ManualPairingCode/parse(_:)``).
    /// Fields are not judged: call ``SetupPayload/validate(_:)`` (consume mode) before using them.
    public static func parse(_ text: String) throws(OnboardingError) -> ParsedCode {
        guard text.contains(where: { !$0.isWhitespace }) else { throw .emptyInput }
        if text.contains(SetupQRCode.prefix) {
            let payloads = try SetupQRCode.parse(text)
            guard let first = payloads.first else { throw .missingQRCodePrefix }
            return ParsedCode(format: .qrCode, first: first, rest: Array(payloads.dropFirst()))
        }
        guard text.contains(where: \.isNumber), !text.contains(where: \.isLetter) else {
            throw .unrecognizedCode
        }
        return ParsedCode(format: .manualPairingCode, first: try ManualPairingCode.parse(text))
    }
}
