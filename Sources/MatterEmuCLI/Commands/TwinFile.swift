import Foundation
import MatterClusters
import MatterCore
import MatterDataModel

/// A node dump given to `--from-dump`: read, checked and made a twin, or refused as a usage error that names
/// the file, the path in it and the reason.
enum TwinFile {
    /// The most a dump file may hold (a bridge of 1,000 endpoints dumps to a few MB).
    static let maxBytes = 64 << 20

    static func read(_ path: String, command: String) throws(UsageError) -> NodeTwin {
        func fail(_ why: String) -> UsageError { UsageError("--from-dump \(path): \(why)", command: command) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw fail("cannot open the file (missing, or not readable)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            throw fail("cannot read the file: \(error.localizedDescription)")
        }
        guard data.count <= maxBytes else { throw fail("larger than \(maxBytes >> 20) MiB; not a node dump") }
        guard let text = String(data: data, encoding: .utf8) else { throw fail("not UTF-8 text; not a node dump") }
        do {
            return try NodeTwin(try NodeDump.read(json: text))
        } catch {
            throw fail("\(error)")
        }
    }

    /// What stderr says at start: the twin is a test device, with test credentials made for it.
    static func testDeviceNote(_ twin: NodeTwin) -> String {
        "note: this twin is a TEST device: it serves Vendor ID 0x\(hex4(twin.vendorID.rawValue)) and Product ID "
            + "0x\(hex4(twin.productID.rawValue)) with a test DAC and certification declaration made now under the "
            + "test PKI's any-vendor PAA; controllers accept it only with that PAA in their trust store"
    }

    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
