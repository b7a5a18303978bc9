import Foundation

/// One element of the model file (model/matter-VERSION.json): a cluster, an attribute, a command, an event,
/// a field, a datatype, a device type or a requirement, with the specification's own notations for access,
/// conformance, constraint and quality kept as text (they are parsed by ``ConformanceParser`` and friends).
struct ModelElement: Decodable {
    var tag: String
    var name: String
    var id: Int64?
    var type: String?
    var base: String?
    var access: String?
    var conformance: String?
    var constraint: String?
    var quality: String?
    var `default`: JSONValue?
    var direction: String?
    var response: String?
    var priority: String?
    var classification: String?
    var title: String?
    var element: String?
    var children: [ModelElement]

    enum CodingKeys: String, CodingKey {
        case tag, name, id, type, base, access, conformance, constraint, quality, `default`, direction, response
        case priority, classification, title, element, children
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tag = try c.decode(String.self, forKey: .tag)
        name = try c.decode(String.self, forKey: .name)
        id = try c.decodeIfPresent(Int64.self, forKey: .id)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        base = try c.decodeIfPresent(String.self, forKey: .base)
        access = try c.decodeIfPresent(String.self, forKey: .access)
        conformance = try c.decodeIfPresent(String.self, forKey: .conformance)
        constraint = try c.decodeIfPresent(String.self, forKey: .constraint)
        quality = try c.decodeIfPresent(String.self, forKey: .quality)
        `default` = try c.decodeIfPresent(JSONValue.self, forKey: .default)
        direction = try c.decodeIfPresent(String.self, forKey: .direction)
        response = try c.decodeIfPresent(String.self, forKey: .response)
        priority = try c.decodeIfPresent(String.self, forKey: .priority)
        classification = try c.decodeIfPresent(String.self, forKey: .classification)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        element = try c.decodeIfPresent(String.self, forKey: .element)
        children = try c.decodeIfPresent([ModelElement].self, forKey: .children) ?? []
    }

    func children(_ tag: String) -> [ModelElement] { children.filter { $0.tag == tag } }
}

/// The whole model file.
struct ModelFile: Decodable {
    var specification: String
    var source: String
    var datatypes: [ModelElement]
    var clusters: [ModelElement]
    var deviceTypes: [ModelElement]
}

/// A JSON value of the model file (defaults).
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let value = try? c.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? c.decode(Double.self) {
            self = .number(value)
        } else if let value = try? c.decode(String.self) {
            self = .string(value)
        } else if let value = try? c.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }
}
