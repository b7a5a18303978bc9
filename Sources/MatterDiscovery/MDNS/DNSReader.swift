/// A bounds-checked big-endian reader over one DNS message that follows compression pointers
/// (RFC 1035 §4.1.4) only backwards, so a pointer loop cannot be followed.
struct DNSReader {
    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func readUInt8() throws(DNSMessageError) -> UInt8 {
        guard offset < bytes.count else { throw DNSMessageError(.truncated, at: offset, "message ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readUInt16() throws(DNSMessageError) -> UInt16 {
        guard offset + 2 <= bytes.count else { throw DNSMessageError(.truncated, at: offset, "message ends early") }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func readUInt32() throws(DNSMessageError) -> UInt32 {
        let high = try readUInt16()
        return UInt32(high) << 16 | UInt32(try readUInt16())
    }

    mutating func readBytes(_ count: Int) throws(DNSMessageError) -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else {
            throw DNSMessageError(.truncated, at: offset, "\(count) bytes wanted, \(remaining) left")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads a possibly compressed name. Its in-place part must end by `limit` (the end of the RDATA it
    /// sits in, or of the message); a pointer must point before itself, and the name, pointers followed,
    /// must fit in 255 bytes.
    mutating func readName(limit: Int? = nil) throws(DNSMessageError) -> DNSName {
        let limit = min(limit ?? bytes.count, bytes.count)
        var labels: [[UInt8]] = []
        var length = 1
        var position = offset
        var end: Int?  // where reading resumes after the first pointer
        var bound = limit  // bytes of the current run must lie before this
        while true {
            guard position < bound else { throw DNSReader.overrun(at: position, afterPointer: end != nil) }
            let byte = bytes[position]
            switch byte & 0xC0 {
            case 0x00:
                if byte == 0 {
                    offset = end ?? position + 1
                    return try DNSName(labels: labels)
                }
                let count = Int(byte)
                guard position + 1 + count <= bound else {
                    throw DNSReader.overrun(at: position, afterPointer: end != nil)
                }
                length += count + 1
                guard length <= DNSName.maxWireBytes else {
                    throw DNSMessageError(.badName, at: position, "name longer than 255 bytes")
                }
                labels.append(Array(bytes[position + 1..<position + 1 + count]))
                position += 1 + count
            case 0xC0:
                guard position + 2 <= bound else {
                    throw DNSMessageError(.truncated, at: position, "compression pointer runs past its end")
                }
                let target = Int(byte & 0x3F) << 8 | Int(bytes[position + 1])
                // Strictly backwards, and the run it starts must end before this pointer (`bound`): each
                // pointer then sits before the previous one, so the walk ends.
                guard target < position else {
                    throw DNSMessageError(
                        .pointerLoop, at: position, "compression pointer to \(target) does not point backwards")
                }
                if end == nil { end = position + 2 }
                bound = position
                position = target
            default:
                throw DNSMessageError(.badLabelType, at: position, "label type 0x\(String(byte >> 6, radix: 16))")
            }
        }
    }

    /// A name running past its end: the message's (truncated), or, after a pointer, the pointer's own place
    /// (a name leading back into itself: a loop).
    private static func overrun(at position: Int, afterPointer: Bool) -> DNSMessageError {
        afterPointer
            ? DNSMessageError(.pointerLoop, at: position, "compressed name runs into the pointer that led to it")
            : DNSMessageError(.truncated, at: position, "name runs past its end")
    }
}
