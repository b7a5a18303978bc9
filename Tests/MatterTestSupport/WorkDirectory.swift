import Foundation

/// A temporary directory for a suite's state directories and logs (`<tmp>/matter-emu-<prefix>-<random>`);
/// it stays until `remove()` (a suite may keep it for a post-mortem), unlike ``TemporaryDirectory``.
package struct WorkDirectory: Sendable {
    /// The directory's path.
    package let root: String

    /// Makes a fresh directory named after `prefix`.
    package init(prefix: String) throws {
        root = NSTemporaryDirectory() + "matter-emu-\(prefix)-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    package func path(_ name: String) -> String { root + "/" + name }

    /// Removes the directory and everything in it.
    package func remove() { try? FileManager.default.removeItem(atPath: root) }
}
