import Foundation
import MatterClusters
import MatterCore
public import MatterDataModel

/// One `--script [ENDPOINT/]CLUSTER.ATTRIBUTE=SCRIPT` (docs/SCRIPTS.md): the attribute, named as the
/// schemas name it, and the script that moves it. The endpoint defaults to 1.
public struct ScriptAssignment: Sendable, CustomStringConvertible {
    public let target: AttributeScripts.Target
    public let script: AttributeScript
    /// The text it was parsed from.
    public let text: String

    public init(target: AttributeScripts.Target, script: AttributeScript, text: String) {
        self.target = target
        self.script = script
        self.text = text
    }

    /// Parses `[ENDPOINT/]CLUSTER.ATTRIBUTE=SCRIPT`; `readFile` reads a `csv` script's file.
    public init(parsing text: String, readFile: (String) throws -> String) throws(ScriptError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ScriptError("\"\(text)\" is not [ENDPOINT/]CLUSTER.ATTRIBUTE=SCRIPT")
        }
        let left = text[..<equals]
        var endpoint: UInt16 = 1
        var path = Substring(left)
        if let slash = left.firstIndex(of: "/") {
            guard let number = UInt16(left[..<slash]) else {
                throw ScriptError("\"\(left[..<slash])\" is not an endpoint number")
            }
            endpoint = number
            path = left[left.index(after: slash)...]
        }
        guard let dot = path.lastIndex(of: "."), dot != path.startIndex, path.index(after: dot) != path.endIndex
        else {
            throw ScriptError("\"\(left)\" is not [ENDPOINT/]CLUSTER.ATTRIBUTE (TemperatureMeasurement.MeasuredValue)")
        }
        let target = try Self.target(
            endpoint: endpoint, cluster: String(path[..<dot]), attribute: String(path[path.index(after: dot)...]))
        let script = try AttributeScript(parsing: String(text[text.index(after: equals)...]), readFile: readFile)
        self.init(target: target, script: script, text: text)
    }

    /// The target named by cluster and attribute names (schema, chip-tool or number).
    public static func target(endpoint: UInt16, cluster: String, attribute: String) throws(ScriptError)
        -> AttributeScripts.Target
    {
        do {
            let schema = try ClusterRegistry.standard.requireCluster(named: cluster)
            let attributeSchema = try schema.requireAttribute(named: attribute)
            return AttributeScripts.Target(
                endpoint: EndpointID(endpoint), cluster: schema.id, attribute: attributeSchema.id)
        } catch {
            throw ScriptError("\(error)")
        }
    }

    public var description: String { text }

    /// A `csv` script's file: a regular file of at most 1 MiB, as UTF-8.
    public static func readFile(_ path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw ScriptError("not a regular file") }
        guard (attributes[.size] as? Int ?? 0) <= 1 << 20 else { throw ScriptError("larger than 1 MiB") }
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
