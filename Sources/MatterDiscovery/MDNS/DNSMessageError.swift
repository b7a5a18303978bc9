/// Why a DNS message could not be decoded or built: a code a caller can switch on, the byte offset where
/// decoding stopped, and a reason a person can read.
package struct DNSMessageError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Code: Sendable, Hashable {
        /// The message ends before a field it announces (header, count, name, RDATA).
        case truncated
        /// A compression pointer points at or after itself: following it could loop forever.
        case pointerLoop
        /// A label's type bits are 01 or 10 (RFC 6891 extended labels, unused): unsupported.
        case badLabelType
        /// A name is longer than 255 bytes, or a label is empty or longer than 63 bytes.
        case badName
        /// An RDATA does not match its type's layout (A not 4 bytes, SRV target running past RDLENGTH...).
        case badRData
        /// The message is larger than the largest mDNS message (9,000 bytes).
        case tooLong
    }

    package let code: Code
    /// Offset in the message where the problem was found (0 when building).
    package let offset: Int
    package let reason: String

    package init(_ code: Code, at offset: Int, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    package var description: String { "DNS message: \(reason) (at byte \(offset))" }
}
