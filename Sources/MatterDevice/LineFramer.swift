/// Splits a byte stream into newline-terminated lines of at most `limit` bytes, for the local servers
/// (the control socket, the app pipe). A longer line is discarded whole, however it arrives: its
/// bytes are counted, not kept, up to its newline, and it comes out as ``Item/oversized(bytes:)`` so
/// nothing of it (neither its head nor its tail) is ever taken as a request.
struct LineFramer {
    /// What the stream held.
    enum Item: Equatable {
        /// A line (without its newline), at most `limit` bytes.
        case line([UInt8])
        /// A line longer than `limit`, dropped; `bytes` is its length.
        case oversized(bytes: Int)
    }

    /// The longest line taken, in bytes (its newline not counted).
    let limit: Int
    private var pending: [UInt8] = []
    /// Bytes of the oversized line being dropped; 0 when none is.
    private var dropped = 0

    init(limit: Int) { self.limit = limit }

    /// Takes the next bytes of the stream and returns the lines they complete.
    mutating func append(_ bytes: ArraySlice<UInt8>) -> [Item] {
        var items: [Item] = []
        var rest = bytes
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: 0x0A)
            let part = rest[..<(newline ?? rest.endIndex)]
            if dropped > 0 {
                dropped += part.count
            } else if pending.count + part.count > limit {
                dropped = pending.count + part.count
                pending.removeAll()
            } else {
                pending.append(contentsOf: part)
            }
            guard let newline else { break }
            items.append(take())
            rest = rest[(newline + 1)...]
        }
        return items
    }

    /// The unterminated last line at the end of the stream, if any (a writer's last write without a
    /// newline); the framer is empty afterwards.
    mutating func finish() -> Item? {
        guard dropped > 0 || !pending.isEmpty else { return nil }
        return take()
    }

    private mutating func take() -> Item {
        defer {
            pending.removeAll()
            dropped = 0
        }
        return dropped > 0 ? .oversized(bytes: dropped) : .line(pending)
    }
}
