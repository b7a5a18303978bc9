/// A domain name as labels of raw bytes (DNS-SD instance labels may hold dots and any UTF-8). Names compare
/// and hash ASCII-case-insensitively, as DNS does (RFC 1035 §2.3.3, RFC 6762 §16).
package struct DNSName: Hashable, Sendable, CustomStringConvertible {
    /// Longest label and longest name in wire form (RFC 1035 §2.3.4).
    package static let maxLabelBytes = 63
    package static let maxWireBytes = 255

    package let labels: [[UInt8]]
    /// The labels with ASCII letters lowered: what equality and hashing use.
    package let folded: [[UInt8]]

    /// Builds from labels, refusing an empty or over-long label or a name over 255 bytes.
    package init(labels: [[UInt8]]) throws(DNSMessageError) {
        var length = 1
        for label in labels {
            guard !label.isEmpty, label.count <= DNSName.maxLabelBytes else {
                throw DNSMessageError(.badName, at: 0, "label of \(label.count) bytes (1 to 63 allowed)")
            }
            length += label.count + 1
        }
        guard length <= DNSName.maxWireBytes else {
            throw DNSMessageError(.badName, at: 0, "name of \(length) bytes (255 allowed)")
        }
        self.labels = labels
        folded = labels.map { $0.map(DNSName.fold) }
    }

    /// Builds from dotted text without escapes (`_matterc._udp.local`); for a label holding a dot, use
    /// `init(labels:)` or `prepending(_:)`.
    package init(_ text: String) throws(DNSMessageError) {
        try self.init(labels: text.split(separator: ".").map { Array($0.utf8) })
    }

    /// The root name (no labels).
    package static let root = DNSName(uncheckedLabels: [])

    private init(uncheckedLabels: [[UInt8]]) {
        labels = uncheckedLabels
        folded = uncheckedLabels.map { $0.map(DNSName.fold) }
    }

    /// `label` + this name, e.g. an instance label before its service type.
    package func prepending(_ label: [UInt8]) throws(DNSMessageError) -> DNSName {
        try DNSName(labels: [label] + labels)
    }

    /// Wire length without compression.
    package var wireLength: Int { labels.reduce(1) { $0 + $1.count + 1 } }

    /// Uncompressed wire form.
    package var wireBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(wireLength)
        for label in labels {
            out.append(UInt8(label.count))
            out += label
        }
        out.append(0)
        return out
    }

    /// True when this name ends with `suffix` (case-insensitively).
    package func hasSuffix(_ suffix: DNSName) -> Bool {
        folded.count >= suffix.folded.count && Array(folded.suffix(suffix.folded.count)) == suffix.folded
    }

    /// The first label as text (an instance name), or "" for the root.
    package var firstLabel: String { labels.first.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// Dotted text; dots and backslashes inside labels are escaped with a backslash.
    package var description: String {
        labels.map { label in
            String(decoding: label, as: UTF8.self).replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: ".", with: "\\.")
        }.joined(separator: ".")
    }

    package static func == (a: DNSName, b: DNSName) -> Bool { a.folded == b.folded }
    package func hash(into hasher: inout Hasher) { hasher.combine(folded) }

    @inline(__always) static func fold(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
