package import Foundation
import MatterController

/// A fresh directory under the system's temporary directory, removed with everything in it when the
/// value is released.
package final class TemporaryDirectory: Sendable {
    /// The directory's path.
    package let path: String

    /// Makes `<tmp>/<prefix>.XXXXXX` (mkdtemp: unique, mode 0700).
    package init(prefix: String = "matter-emu-tests") throws {
        let template = NSTemporaryDirectory() + prefix + ".XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The directory as a file URL.
    package var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// A path inside the directory.
    package func file(_ name: String) -> String { path + "/" + name }

    /// The controller store a `--state-dir` of this directory uses.
    package var storePath: String { ControllerStateDirectory.storePath(in: path) }

    /// Writes `bytes` to the file `name` inside the directory.
    package func write(_ bytes: [UInt8], _ name: String) throws {
        try Data(bytes).write(to: url.appendingPathComponent(name))
    }

    /// Writes `text` (UTF-8) to the file `name` inside the directory.
    package func write(_ text: String, _ name: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }
}
