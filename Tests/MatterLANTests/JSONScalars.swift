import Foundation

/// One top-level value of a flat JSON object (a stats line), decoded strictly: a JSON `true` never
/// passes for the number 1 (JSONSerialization's NSNumber blurs the two).
enum JSONScalar: Decodable, Equatable {
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case null
    case other

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .other
        }
    }

    var int: Int64? { if case .int(let value) = self { value } else { nil } }

    /// A flat JSON object line, or nil.
    static func object(_ line: String) -> [String: JSONScalar]? {
        try? JSONDecoder().decode([String: JSONScalar].self, from: Data(line.utf8))
    }
}
