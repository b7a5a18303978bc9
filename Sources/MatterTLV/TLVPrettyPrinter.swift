import MatterCore

/// Renders TLV as text for logs: the format of ``TLVElement/prettyDescription``.
public enum TLVPrettyPrinter {
    /// `element` one member a line, indented two spaces per level.
    public static func format(_ element: TLVElement) -> String {
        format(element, multiline: true)
    }

    /// The elements in `bytes`, one member a line, read as a stream so that malformed input is shown
    /// up to the first error, followed by a line `error: <description>`.
    public static func format(bytes: [UInt8]) -> String {
        var formatter = Formatter(multiline: true)
        var reader = TLVReader(bytes)
        do {
            while let token = try reader.next() { formatter.append(token) }
        } catch {
            formatter.appendError(error)
        }
        return formatter.finish()
    }

    /// `element` on several lines, or on one line with `, ` between members.
    static func format(_ element: TLVElement, multiline: Bool) -> String {
        var formatter = Formatter(multiline: multiline)
        formatter.append(element)
        return formatter.finish()
    }

    /// Turns a token stream into text.
    private struct Formatter {
        let multiline: Bool
        private var lines: [String] = []
        private var line = ""
        private var depth = 0
        /// Multi-line: a container was opened on `line` and has no member yet.
        /// Single-line: the next member needs a `, ` separator when false.
        private var atContainerStart = true

        init(multiline: Bool) {
            self.multiline = multiline
        }

        mutating func append(_ element: TLVElement) {
            switch element.value {
            case .structure(let members): appendContainer(.structure, element.tag, members)
            case .array(let members): appendContainer(.array, element.tag, members)
            case .list(let members): appendContainer(.list, element.tag, members)
            default: append(.element(tag: element.tag, value: element.value))
            }
        }

        private mutating func appendContainer(_ type: TLVContainerType, _ tag: TLVTag, _ members: [TLVElement]) {
            append(.containerStart(tag: tag, type: type))
            for member in members { append(member) }
            append(.containerEnd(type: type))
        }

        mutating func append(_ token: TLVToken) {
            switch token {
            case .element(let tag, let value):
                beginMember()
                line += Self.prefix(tag) + Self.scalar(value)
                atContainerStart = false
            case .containerStart(let tag, let type):
                beginMember()
                line += Self.prefix(tag) + Self.opening(type)
                depth += 1
                atContainerStart = true
            case .containerEnd(let type):
                depth -= 1
                if multiline && !atContainerStart { newLine() }
                line += Self.closing(type)
                atContainerStart = false
            }
        }

        mutating func appendError(_ error: TLVError) {
            if multiline {
                if !line.isEmpty { newLine() }
                line = "error: \(error)"
            } else {
                line += (line.isEmpty ? "" : " ") + "<error: \(error)>"
            }
        }

        mutating func finish() -> String {
            if !line.isEmpty || lines.isEmpty { lines.append(line) }
            line = ""
            return lines.joined(separator: "\n")
        }

        /// Starts a member: a new indented line, or a separator on one line.
        private mutating func beginMember() {
            if multiline {
                if !line.isEmpty { newLine() }
            } else if !atContainerStart {
                line += ", "
            }
        }

        private mutating func newLine() {
            lines.append(line)
            line = String(repeating: "  ", count: max(0, depth))
        }

        private static func prefix(_ tag: TLVTag) -> String {
            tag == .anonymous ? "" : "\(tag): "
        }

        private static func opening(_ type: TLVContainerType) -> String {
            switch type {
            case .structure: "{"
            case .array: "["
            case .list: "[["
            }
        }

        private static func closing(_ type: TLVContainerType) -> String {
            switch type {
            case .structure: "}"
            case .array: "]"
            case .list: "]]"
            }
        }

        private static func scalar(_ value: TLVValue) -> String {
            switch value {
            case .signed(let v): "\(v)"
            case .unsigned(let v): "\(v)U"
            case .bool(let v): "\(v)"
            case .float(let v): v.isFinite ? "\(v)f" : "\(v)"
            case .double(let v): "\(v)"
            case .utf8(let v): v.debugDescription
            case .bytes(let v): "hex:" + Hex.encode(v)
            case .null: "null"
            case .structure, .array, .list: ""  // containers arrive as start/end tokens
            }
        }
    }
}
