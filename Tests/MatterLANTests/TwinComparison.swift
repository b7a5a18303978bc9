import Foundation
import MatterClusters
import MatterCore
import MatterDataModel
import Testing

/// Issue 31's judgement of a twin: the node a controller read from it against the recording it was made
/// from, attribute by attribute, fabric-bound attributes aside (endpoint 0's fabric and commissioning
/// clusters, which are the twin's own, and fabric-scoped lists anywhere).
enum TwinComparison {
    /// Compares the two files; records an issue per differing attribute and prints one PASS or FAIL line.
    static func judge(_ name: String, recording: String, twin: String, by controller: String) throws {
        let original = try NodeDump.read(json: String(contentsOfFile: recording, encoding: .utf8))
        let copy = try NodeDump.read(json: String(contentsOfFile: twin, encoding: .utf8))
        let paths = Set(original.attributes.keys).union(copy.attributes.keys).filter { !NodeTwin.isFabricBound($0) }
            .sorted()
        let differing = paths.filter { original.attributes[$0] != copy.attributes[$0] }
        for path in differing {
            let was = String(describing: original.attributes[path])
            let now = String(describing: copy.attributes[path])
            Issue.record("\(name): twin \(path): recorded \(was), twin \(now)")
        }
        let verdict = differing.isEmpty ? "PASS" : "FAIL"
        print(
            "  [\(name)] [\(verdict)] twin: \(controller)'s read of the twin equals its recording "
                + "(\(paths.count - differing.count)/\(paths.count) attributes, fabric-bound aside)")
    }
}
