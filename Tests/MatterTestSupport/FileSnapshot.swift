package import Foundation

/// What a file holds and its permission bits, to show that something refused left it alone.
package struct FileSnapshot: Equatable, Sendable {
    package let contents: Data
    package let permissions: Int

    /// The file at `path` now (through a symbolic link: the target's).
    package init(_ path: String) throws {
        contents = try Data(contentsOf: URL(fileURLWithPath: path))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

extension TemporaryDirectory {
    /// Writes `text` to `name` with mode `permissions`: a file that is not the project's (a victim).
    package func victim(_ name: String, text: String = "someone else's file\n", permissions: Int = 0o644) throws
        -> String
    {
        let path = file(name)
        try write(text, name)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        return path
    }

    /// A symbolic link `name` to `target`.
    package func symlink(_ name: String, to target: String) throws -> String {
        let path = file(name)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        return path
    }

    /// A hard link `name` to `target`.
    package func hardLink(_ name: String, to target: String) throws -> String {
        let path = file(name)
        try FileManager.default.linkItem(atPath: target, toPath: path)
        return path
    }
}

/// Overwrites `count` bytes of the file at `path` from `offset` with 0xFF: a damaged page.
package func damage(_ path: String, at offset: UInt64, count: Int) throws {
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.seek(toOffset: offset)
    try handle.write(contentsOf: Data(repeating: 0xFF, count: count))
    try handle.close()
}
