/// The TXT record of a DNS-SD service: an ordered list of `key=value` strings (RFC 6763 §6).
/// Keys compare case-insensitively; when a key repeats, the first occurrence wins; an entry without
/// `=` is a boolean attribute (value nil); an entry with an empty key (the SDK's lone `=`) is ignored.
package struct DNSSDTXTRecord: Sendable, Hashable, CustomStringConvertible {
    /// One `key=value` string.
    package struct Entry: Sendable, Hashable {
        package var key: String
        /// nil for a boolean attribute (`key` without `=`); "" for `key=`.
        package var value: String?

        package init(key: String, value: String?) {
            self.key = key
            self.value = value
        }

        /// The entry's wire form: `key=value` in UTF-8.
        package var bytes: [UInt8] {
            guard let value else { return Array(key.utf8) }
            return Array(key.utf8) + [UInt8(ascii: "=")] + Array(value.utf8)
        }
    }

    /// Largest encoded entry (one length byte on the wire).
    package static let maxEntryBytes = 255

    /// Entries in publication order.
    package private(set) var entries: [Entry]

    package init(_ entries: [Entry] = []) { self.entries = entries }

    /// Builds from `(key, value)` pairs, in order.
    package init(pairs: KeyValuePairs<String, String>) {
        entries = pairs.map { Entry(key: $0.key, value: $0.value) }
    }

    /// Parses received TXT strings. Never fails: bytes that are not UTF-8 are decoded with
    /// replacement characters, and empty or key-less strings are dropped.
    package init(wireStrings: [[UInt8]]) {
        entries = []
        for raw in wireStrings where !raw.isEmpty {
            if let eq = raw.firstIndex(of: UInt8(ascii: "=")) {
                guard eq > raw.startIndex else { continue }
                entries.append(
                    Entry(
                        key: String(decoding: raw[..<eq], as: UTF8.self),
                        value: String(decoding: raw[(eq + 1)...], as: UTF8.self)))
            } else {
                entries.append(Entry(key: String(decoding: raw, as: UTF8.self), value: nil))
            }
        }
    }

    /// The value of the first entry whose key matches `key` case-insensitively; nil when absent or
    /// when the key is a boolean attribute.
    package subscript(key: String) -> String? {
        let wanted = key.lowercased()
        return entries.first { $0.key.lowercased() == wanted }?.value
    }

    /// True when an entry with `key` (case-insensitive) exists, with or without a value.
    package func contains(key: String) -> Bool {
        let wanted = key.lowercased()
        return entries.contains { $0.key.lowercased() == wanted }
    }

    /// Appends `key=value`.
    package mutating func append(_ key: String, _ value: String) { entries.append(Entry(key: key, value: value)) }

    /// The wire strings, each checked against the 255-byte limit.
    package func wireStrings() throws(DiscoveryError) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for entry in entries {
            guard !entry.key.isEmpty, !entry.key.contains("=") else {
                throw .invalidRecord("TXT key '\(entry.key)' is empty or contains '='")
            }
            let bytes = entry.bytes
            guard bytes.count <= DNSSDTXTRecord.maxEntryBytes else {
                throw .invalidRecord("TXT entry '\(entry.key)' is \(bytes.count) bytes; the limit is 255")
            }
            out.append(bytes)
        }
        return out
    }

    package var description: String {
        entries.map { entry in entry.value.map { "\(entry.key)=\($0)" } ?? entry.key }.joined(separator: " ")
    }
}
