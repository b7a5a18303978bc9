import FuzzSupport
import MatterTLV

@main
enum FuzzTLV {
    static func main() { runLibFuzzer(fuzzTLV) }
}

/// Fuzz target for MatterTLV: the streaming reader token by token, whole element trees, skipping, the
/// pretty-printer, and the element round trip (decode → encode → decode).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzInput(data, size)

    // Token by token until the end of the input or the first error.
    var tokens = TLVReader(bytes)
    while true {
        guard let token = try? tokens.next() else { break }
        _ = token
        fuzzCheck(tokens.depth <= TLVReader.maximumDepth, "reader depth \(tokens.depth) above the limit")
    }

    // Top-level elements read whole, and the same ones skipped: both must stop at the same offset.
    var reader = TLVReader(bytes)
    var skipper = TLVReader(bytes)
    var elements: [TLVElement] = []
    while true {
        guard (try? reader.peekHeader()) != nil else { break }
        let read: TLVElement
        do { read = try reader.readElement() } catch { break }
        elements.append(read)
        do { try skipper.skipElement() } catch {
            fuzzFailure("skipElement failed where readElement succeeded: \(error)")
        }
        fuzzCheck(
            skipper.offset == reader.offset,
            "skipElement stopped at \(skipper.offset), readElement at \(reader.offset)")
    }

    _ = TLVPrettyPrinter.format(bytes: bytes)
    for element in elements {
        _ = element.prettyDescription
        checkRoundTrip(element, name: "TLVElement", encode: { $0.encoded() }, decode: TLVElement.decode)
    }

    // Exactly one element: TLVElement.decode agrees with the reader.
    if let single = try? TLVElement.decode(bytes) {
        fuzzCheck(elements.count == 1 && sameDecoded(elements[0], single), "decode disagrees with readElement")
    }
    return 0
}
