/// A command line that cannot be run as written (exit code 2). The message says what is wrong.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    /// The command path (e.g. `payload generate`) whose `--help` the user should read.
    let command: String

    init(_ message: String, command: String = "") {
        self.message = message
        self.command = command
    }

    var description: String { message }
}
