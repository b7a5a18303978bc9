import Foundation
import MatterDataModel
import MatterDevice

/// `fleet --config FILE`: `{"groups": [{"type": ..., "count": N, "name": ..., "scripts": [...]}], "basePort": P}`, every
/// key checked; a group may give `"dump": FILE` (twins of a recorded device, docs/TWINS.md) instead of a type. An unknown key is an error naming it and the nearest known one; a value of the wrong
/// type or out of range names its key and range; a fleet without devices is refused. Exit 2.
struct FleetConfigFile {
    static let topKeys = ["groups", "basePort"]
    static let groupKeys = ["type", "dump", "count", "name", "scripts"]

    let groups: [Fleet.Group]
    let basePort: UInt16?

    init(path: String, command: String) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError("--config \(path): \(message)", command: command) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw fail("cannot read the file")
        }
        guard let parsed = try? JSONSerialization.jsonObject(with: data), let json = parsed as? [String: Any] else {
            throw fail("not a JSON object")
        }
        if let unknown = Self.unknownKey(in: json, known: Self.topKeys) { throw fail(unknown) }
        guard let list = json["groups"] as? [Any] else { throw fail("needs a \"groups\" list") }
        guard !list.isEmpty else { throw fail("\"groups\" is empty: a fleet needs at least one group of devices") }
        var groups: [Fleet.Group] = []
        for (index, item) in list.enumerated() {
            guard let entry = item as? [String: Any] else { throw fail("group \(index) is not an object") }
            if let unknown = Self.unknownKey(in: entry, known: Self.groupKeys) {
                throw fail("group \(index): \(unknown)")
            }
            var twin: NodeTwin?
            if let value = entry["dump"] {
                guard let file = value as? String else { throw fail("group \(index): \"dump\" must be a file name") }
                guard entry["type"] == nil else {
                    throw fail("group \(index): a \"dump\" group is the recorded device; it takes no \"type\"")
                }
                // Relative to the configuration file's directory.
                let base = (path as NSString).deletingLastPathComponent
                let resolved = file.hasPrefix("/") || base.isEmpty ? file : base + "/" + file
                twin = try TwinFile.read(resolved, command: command)
            }
            guard let type = entry["type"] as? String ?? (twin != nil ? "dump" : nil) else {
                throw fail("group \(index) needs a \"type\" (a string) or a \"dump\" (a node dump file)")
            }
            guard let count = Self.integer(entry["count"]), (1...65_535).contains(count) else {
                throw fail("group \(index) needs a \"count\", a whole number 1...65535")
            }
            var name: String?
            if let value = entry["name"] {
                guard let text = value as? String else { throw fail("group \(index): \"name\" must be a string") }
                name = text
            }
            var group = Fleet.Group(type: type, count: count, namePrefix: name)
            group.twin = twin
            if let value = entry["scripts"] {
                guard let texts = value as? [String] else {
                    throw fail("group \(index): \"scripts\" must be a list of strings ([EP/]CLUSTER.ATTRIBUTE=SCRIPT)")
                }
                for text in texts {
                    do throws(ScriptError) {
                        group.scripts.append(try ScriptAssignment(parsing: text, readFile: ScriptAssignment.readFile))
                    } catch {
                        throw fail("group \(index): script \(text): \(error.message)")
                    }
                }
            }
            groups.append(group)
        }
        self.groups = groups
        if let value = json["basePort"] {
            guard let port = Self.integer(value), let valid = UInt16(exactly: port) else {
                throw fail("\"basePort\" must be a whole number 0...65535")
            }
            basePort = valid
        } else {
            basePort = nil
        }
    }

    /// A JSON whole number (not a boolean, not a fraction), nil otherwise.
    static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let double = number.doubleValue
        guard double.rounded() == double, abs(double) < 1e15 else { return nil }
        return Int(double)
    }

    /// "unknown key "x" (did you mean "y"?)" for the first key of `object` not in `known`.
    static func unknownKey(in object: [String: Any], known: [String]) -> String? {
        guard let key = object.keys.sorted().first(where: { !known.contains($0) }) else { return nil }
        let nearest = known.min { distance(key, $0) < distance(key, $1) }
        let hint = nearest.map { " (did you mean \"\($0)\"?)" } ?? ""
        return "unknown key \"\(key)\"\(hint); known keys: \(known.joined(separator: ", "))"
    }

    /// Levenshtein distance, case-insensitive.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased())
        let y = Array(b.lowercased())
        guard !x.isEmpty else { return y.count }
        var row = Array(0...y.count)
        for i in 1...x.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: y.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return row[y.count]
    }
}
