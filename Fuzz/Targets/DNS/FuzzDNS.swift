import FuzzSupport

@testable import MatterDiscovery

@main
enum FuzzDNS {
    static func main() { runLibFuzzer(fuzzDNS) }
}

/// Thrown by the encoder when our (maximally compressed) encoding is still over the mDNS limit: possible when the
/// input compressed names against bytes we never point into (inside TXT strings), so not a broken invariant.
private struct OverLimit: Error {}

/// Fuzz target for the mDNS message codec: whatever `DNSMessage(bytes:)` accepts is serialized again and must
/// decode to the same message and serialize to the same bytes; split into packets, every packet must fit and
/// decode, and the records must come back in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzInput(data, size)
    guard let message = try? DNSMessage(bytes: bytes) else { return 0 }
    checkRoundTrip(
        message, name: "DNS message",
        encode: { message in
            let encoded = message.serialize()
            guard encoded.count <= DNSMessage.maxBytes else { throw OverLimit() }
            return encoded
        },
        decode: { bytes throws(DNSMessageError) in try DNSMessage(bytes: bytes) })
    let packets = message.packets(maxBytes: 1460)
    var answers: [DNSResourceRecord] = []
    for packet in packets {
        let encoded = packet.serialize()
        if packet.answers.count + packet.questions.count + packet.authorities.count > 1 {
            fuzzCheck(encoded.count <= 1460, "packet of \(encoded.count) bytes holds more than one oversized entry")
        }
        if encoded.count <= DNSMessage.maxBytes {
            fuzzCheck((try? DNSMessage(bytes: encoded)) == packet, "packet does not decode to itself: \(hex(encoded))")
        }
        answers += packet.answers
    }
    fuzzCheck(answers == message.answers, "packets lost or reordered answers")
    for record in message.answers + message.additionals {
        _ = record.data.canonicalBytes
        _ = record.description
    }
    return 0
}
