import FuzzSupport
import MatterClusters
import MatterInteraction
import MatterTLV

@main
enum FuzzInteraction {
    static func main() { runLibFuzzer(fuzzInteraction) }
}

/// Fuzz target for MatterInteraction's message codecs (what a device and a controller decode from a peer).
///
/// Every message decoder runs on each input (all are anonymous TLV structures of different shapes, so coverage
/// steers inputs toward each), and what one accepts goes through the round trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInteraction(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzInput(data, size)
    check(StatusResponseMessage.self, bytes)
    check(ReadRequestMessage.self, bytes)
    check(SubscribeRequestMessage.self, bytes)
    check(SubscribeResponseMessage.self, bytes)
    check(ReportDataMessage.self, bytes)
    check(WriteRequestMessage.self, bytes)
    check(WriteResponseMessage.self, bytes)
    check(InvokeRequestMessage.self, bytes)
    check(InvokeResponseMessage.self, bytes)
    check(TimedRequestMessage.self, bytes)
    // What the controller prints for a report: each value formatted as its attribute's schema type.
    if let report = try? ReportDataMessage(decoding: bytes) {
        for case .data(let data) in report.attributeReports { _ = format(data.data, at: data.path) }
    }
    if let write = try? WriteRequestMessage(decoding: bytes) {
        for request in write.writeRequests { _ = format(request.data, at: request.path) }
    }
    return 0
}

private func format(_ value: TLVValue, at path: AttributePathIB) -> String {
    let schema = path.cluster.flatMap { ClusterRegistry.standard.cluster($0) }
    let attribute = path.attribute.flatMap { schema?.attribute($0) }
    return ClusterValueCodec.format(value, as: attribute?.type)
}

private func check<M: InteractionMessage & Equatable>(_ type: M.Type, _ bytes: [UInt8]) {
    guard let message = try? M(decoding: bytes) else { return }
    _ = String(describing: message)
    checkRoundTrip(message, name: "\(M.opcode)", encode: { $0.encode() }, decode: M.init(decoding:))
}
