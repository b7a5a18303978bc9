import MatterCore

/// Mutations of a valid message: bit flips, truncation, extension, byte overwrites.
enum MessageMutator {
    static func mutate(_ message: [UInt8], random: inout SeededRandom) -> [UInt8] {
        var bytes = message
        switch random.next() % 4 {
        case 0:  // flip 1 to 8 bits anywhere
            for _ in 0...(random.next() % 8) where !bytes.isEmpty {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] ^= 1 << UInt8(random.next() % 8)
            }
        case 1:  // truncate
            bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count + 1))))
        case 2:  // extend with garbage
            bytes += randomBytes(count: 1 + Int(random.next() % 64), random: &random)
        default:  // overwrite a run of bytes past the message header
            guard bytes.count > 8 else { break }
            let start = 8 + Int(random.next() % UInt64(bytes.count - 8))
            let end = min(bytes.count, start + 1 + Int(random.next() % 16))
            for index in start..<end { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        }
        return bytes
    }

    static func randomBytes(count: Int, random: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            withUnsafeBytes(of: random.next()) { bytes += $0.prefix(count - bytes.count) }
        }
        return bytes
    }
}
