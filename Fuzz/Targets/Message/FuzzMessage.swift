import FuzzSupport
import MatterCore

@testable import MatterTransport

@main
enum FuzzMessage {
    static func main() { runLibFuzzer(fuzzMessage) }
}

/// A fixed key for the AES-CCM part: the fuzzer cannot forge a tag for it, but the secured-session path
/// (nonce from the header, header bytes as AAD, length checks) still runs on every input.
private let sessionKey: [UInt8] = Array(0..<16)

/// Fuzz target for MatterTransport's codecs: the message header, the payload (exchange) header after it (as on
/// the unsecured session) and at the start of the input (as after decryption), StatusReport, and the
/// secured-session steps that need no key of the peer (nonce, AAD, AES-CCM open of the rest).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzInput(data, size)

    var reader = ByteReader(bytes)
    if let header = try? MessageHeader(from: &reader) {
        checkRoundTrip(
            header, name: "MessageHeader", encode: { $0.encoded },
            decode: { bytes throws(MessageCodecError) in
                var again = ByteReader(bytes)
                let decoded = try MessageHeader(from: &again)
                fuzzCheck(again.isAtEnd, "MessageHeader: \(again.remaining) bytes of our own encoding left unread")
                return decoded
            })
        fuzzCheck(reader.offset <= bytes.count, "MessageHeader: reader past the end")
        let headerBytes = Array(bytes[0..<reader.offset])
        var payloadReader = reader
        if let payloadHeader = try? PayloadHeader(from: &payloadReader) { checkPayloadHeader(payloadHeader) }
        if !header.isUnsecured {
            let nonce = MessageSecurity.nonce(
                securityFlags: header.securityFlags, counter: header.messageCounter,
                nodeID: header.source?.rawValue ?? 0)
            fuzzCheck(nonce.count == 13, "nonce is \(nonce.count) bytes")
            let sealed = reader.readRest()
            if sealed.count >= MessageSecurity.micLength {
                _ = MessageSecurity.open(key: sessionKey, nonce: nonce, aad: headerBytes, sealed: sealed)
            }
            // What we seal with the same header must open again to the same plaintext.
            if let resealed = try? MessageSecurity.seal(
                key: sessionKey, nonce: nonce, aad: headerBytes,
                plaintext: sealed)
            {
                let opened = MessageSecurity.open(key: sessionKey, nonce: nonce, aad: headerBytes, sealed: resealed)
                fuzzCheck(opened == sealed, "AES-CCM seal/open round trip failed")
            }
        }
    }

    var payloadReader = ByteReader(bytes)
    if let payloadHeader = try? PayloadHeader(from: &payloadReader) { checkPayloadHeader(payloadHeader) }

    if let report = try? StatusReport(decoding: bytes) {
        _ = report.description
        checkRoundTrip(report, name: "StatusReport", encode: { $0.encoded }, decode: StatusReport.init(decoding:))
    }
    return 0
}

private func checkPayloadHeader(_ header: PayloadHeader) {
    checkRoundTrip(
        header, name: "PayloadHeader",
        encode: { header in
            var writer = ByteWriter(capacity: 16)
            header.encode(into: &writer)
            return writer.bytes
        },
        decode: { bytes throws(MessageCodecError) in
            var again = ByteReader(bytes)
            let decoded = try PayloadHeader(from: &again)
            fuzzCheck(again.isAtEnd, "PayloadHeader: \(again.remaining) bytes of our own encoding left unread")
            return decoded
        })
}
