#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Writes command output: results to stdout (clean for scripts), progress and errors to stderr.
struct OutputSink {
    func print(_ text: String) { OutputSink.write(text + "\n", to: 1) }
    func printJSON(_ value: JSONValue) { print(value.serialized(pretty: true)) }
    func progress(_ text: String) { OutputSink.write(text + "\n", to: 2) }

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
