public import MatterCore

/// One entry of a node's Descriptor DeviceTypeList: a device type on an endpoint.
public struct NodeDeviceType: Sendable, Hashable {
    /// The endpoint whose Descriptor lists the device type.
    public var endpoint: EndpointID
    /// The device type (0x0100 on-off light, 0x0101 dimmable light...).
    public var deviceType: DeviceTypeID
    /// The device type revision the endpoint implements.
    public var revision: UInt16

    public init(endpoint: EndpointID, deviceType: DeviceTypeID, revision: UInt16) {
        self.endpoint = endpoint
        self.deviceType = deviceType
        self.revision = revision
    }
}

/// The `nodes.device_types` column: a JSON array of objects with three unsigned integers, readable
/// in the `sqlite3` shell, e.g. `[{"endpoint":1,"deviceType":257,"revision":3}]`. Written and read
/// here without Foundation; the reader accepts any JSON whitespace and key order.
enum NodeDeviceTypeList {
    static func encode(_ list: [NodeDeviceType]) -> String {
        let items = list.map { item in
            "{\"endpoint\":\(item.endpoint.rawValue),\"deviceType\":\(item.deviceType.rawValue),"
                + "\"revision\":\(item.revision)}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    static func decode(_ text: String) throws(StorageError) -> [NodeDeviceType] {
        var parser = Parser(bytes: Array(text.utf8))
        guard let list = parser.list(), parser.atEnd else {
            throw .invalidStoredValue("nodes.device_types is not a device-type list: \(text.prefix(80))")
        }
        return list
    }

    /// A parser for exactly this shape; nil on anything else.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool {
            mutating get {
                skipSpace()
                return index == bytes.count
            }
        }

        mutating func list() -> [NodeDeviceType]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var items: [NodeDeviceType] = []
            if take(UInt8(ascii: "]")) { return items }
            repeat {
                guard let item = object() else { return nil }
                items.append(item)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? items : nil
        }

        private mutating func object() -> NodeDeviceType? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var fields: [String: UInt64] = [:]
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let value = number(), fields[key] == nil else {
                    return nil
                }
                fields[key] = value
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), fields.count == 3,
                let endpoint = fields["endpoint"].flatMap(UInt16.init(exactly:)),
                let deviceType = fields["deviceType"].flatMap(UInt32.init(exactly:)),
                let revision = fields["revision"].flatMap(UInt16.init(exactly:))
            else { return nil }
            return NodeDeviceType(
                endpoint: EndpointID(endpoint), deviceType: DeviceTypeID(deviceType), revision: revision)
        }

        /// A key without escapes (ours never need any).
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            defer { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        private mutating func number() -> UInt64? {
            skipSpace()
            var value: UInt64 = 0
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                index += 1
            }
            return index > start ? value : nil
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
    }
}
