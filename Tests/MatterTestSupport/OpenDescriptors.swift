import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// This process's open descriptors, as `/proc/self/fd` lists them.
package enum OpenDescriptors {
    /// The descriptors open on the file at `path` (compared by device and inode, so a path through
    /// a symbolic link or a hard link finds them too), lowest first.
    package static func on(_ path: String) -> [Int32] {
        var target = stat()
        guard stat(path, &target) == 0 else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }.sorted().filter { descriptor in
            var info = stat()
            return fstat(descriptor, &info) == 0 && info.st_dev == target.st_dev && info.st_ino == target.st_ino
        }
    }
}
