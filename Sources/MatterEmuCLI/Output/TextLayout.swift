/// Small text helpers for aligned human output (no Foundation needed).
enum TextLayout {
    /// `name` padded with spaces to `width`, then `value`: one "Field   value" line.
    static func field(_ name: String, _ value: String, width: Int = 24) -> String {
        name + String(repeating: " ", count: max(1, width - name.count)) + value
    }

    /// `text` without leading and trailing spaces.
    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        var s = Substring(text)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
