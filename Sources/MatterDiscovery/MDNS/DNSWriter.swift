/// Builds a DNS message's bytes, compressing names (RFC 1035 §4.1.4) against suffixes written earlier.
struct DNSWriter {
    private(set) var bytes: [UInt8] = []
    private let compressing: Bool
    /// Offsets of name suffixes already written (folded labels), for compression pointers.
    private var suffixes: [ArraySlice<[UInt8]>: Int] = [:]
    /// Suffixes added since the last checkpoint, so a rollback can forget them.
    private var added: [ArraySlice<[UInt8]>] = []

    init(compressing: Bool = true) { self.compressing = compressing }

    var count: Int { bytes.count }

    mutating func writeUInt8(_ value: UInt8) { bytes.append(value) }

    mutating func writeUInt16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func writeUInt32(_ value: UInt32) {
        writeUInt16(UInt16(value >> 16))
        writeUInt16(UInt16(value & 0xFFFF))
    }

    mutating func setUInt16(_ value: UInt16, at offset: Int) {
        bytes[offset] = UInt8(value >> 8)
        bytes[offset + 1] = UInt8(value & 0xFF)
    }

    mutating func writeName(_ name: DNSName) {
        for index in name.labels.indices {
            let suffix = name.folded[index...]
            if compressing, let target = suffixes[suffix] {
                writeUInt16(0xC000 | UInt16(target))
                return
            }
            if compressing, bytes.count < 0x4000 {
                suffixes[suffix] = bytes.count
                added.append(suffix)
            }
            bytes.append(UInt8(name.labels[index].count))
            bytes += name.labels[index]
        }
        bytes.append(0)
    }

    mutating func writeRData(_ data: DNSRecordData) {
        switch data {
        case .a(let address), .aaaa(let address): bytes += address
        case .ptr(let name): writeName(name)
        case .srv(let priority, let weight, let port, let target):
            writeUInt16(priority)
            writeUInt16(weight)
            writeUInt16(port)
            writeName(target)
        case .txt(let strings):
            for string in strings {
                let limited = string.prefix(255)
                bytes.append(UInt8(limited.count))
                bytes += limited
            }
        case .nsec(let next, let types):
            writeName(next)
            var windows: [UInt8: [UInt8]] = [:]
            for type in types {
                let window = UInt8(type.rawValue >> 8)
                let low = Int(type.rawValue & 0xFF)
                var bitmap = windows[window] ?? []
                if bitmap.count <= low / 8 { bitmap += [UInt8](repeating: 0, count: low / 8 + 1 - bitmap.count) }
                bitmap[low / 8] |= 0x80 >> UInt8(low % 8)
                windows[window] = bitmap
            }
            for window in windows.keys.sorted() {
                let bitmap = windows[window] ?? []
                bytes.append(window)
                bytes.append(UInt8(bitmap.count))
                bytes += bitmap
            }
        case .other(_, let raw): bytes += raw
        }
    }

    mutating func writeQuestion(_ question: DNSQuestion) {
        writeName(question.name)
        writeUInt16(question.type.rawValue)
        writeUInt16((question.unicastResponse ? DNSClass.topBit : 0) | question.questionClass & 0x7FFF)
    }

    mutating func writeRecord(_ record: DNSResourceRecord) {
        writeName(record.name)
        writeUInt16(record.type.rawValue)
        writeUInt16((record.cacheFlush ? DNSClass.topBit : 0) | record.recordClass & 0x7FFF)
        writeUInt32(record.ttl)
        let lengthOffset = bytes.count
        writeUInt16(0)
        writeRData(record.data)
        setUInt16(UInt16(truncatingIfNeeded: bytes.count - lengthOffset - 2), at: lengthOffset)
    }

    /// Marks a point `rollback()` returns to.
    mutating func checkpoint() -> Int {
        added.removeAll(keepingCapacity: true)
        return bytes.count
    }

    /// Forgets everything written since `checkpoint`, compression targets included.
    mutating func rollback(to checkpoint: Int) {
        bytes.removeSubrange(checkpoint...)
        for suffix in added { suffixes[suffix] = nil }
        added.removeAll(keepingCapacity: true)
    }
}
