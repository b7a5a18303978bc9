import MatterCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Writes command output: results to stdout (clean for scripts), progress and errors to stderr.
/// Control characters and invisible format characters (in a stored name, a device's string, an error
/// message) are never written raw: they print as `\u{1B}`, `\u{202E}`, so nothing a peer or a file
/// holds can drive the terminal or reorder what it shows.
struct OutputSink {
    func print(_ text: String) { OutputSink.write(OutputSink.visible(text) + "\n", to: 1) }
    func printJSON(_ value: JSONValue) { print(value.serialized(pretty: true)) }
    func progress(_ text: String) { OutputSink.write(OutputSink.visible(text) + "\n", to: 2) }

    /// `text` with every control character but newline and tab, and every format character (bidi
    /// overrides, zero-width characters), written as `\u{XX}`.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar != "\n", scalar != "\t" else { return false }
        return NameCharacters.isForbidden(scalar)
    }

    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buf in
            guard let base = buf.baseAddress else { return }
            var done = 0
            while done < buf.count {
                let n = Glibc.write(fd, base + done, buf.count - done)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
        }
    }
}
