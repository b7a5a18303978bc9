/// Interaction-model opcodes (protocol 0x0001).
package struct InteractionOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let statusResponse = InteractionOpcode(rawValue: 0x01)
    package static let readRequest = InteractionOpcode(rawValue: 0x02)
    package static let subscribeRequest = InteractionOpcode(rawValue: 0x03)
    package static let subscribeResponse = InteractionOpcode(rawValue: 0x04)
    package static let reportData = InteractionOpcode(rawValue: 0x05)
    package static let writeRequest = InteractionOpcode(rawValue: 0x06)
    package static let writeResponse = InteractionOpcode(rawValue: 0x07)
    package static let invokeRequest = InteractionOpcode(rawValue: 0x08)
    package static let invokeResponse = InteractionOpcode(rawValue: 0x09)
    package static let timedRequest = InteractionOpcode(rawValue: 0x0A)

    /// The message's name, e.g. `ReportData`.
    package var description: String {
        switch rawValue {
        case 0x01: "StatusResponse"
        case 0x02: "ReadRequest"
        case 0x03: "SubscribeRequest"
        case 0x04: "SubscribeResponse"
        case 0x05: "ReportData"
        case 0x06: "WriteRequest"
        case 0x07: "WriteResponse"
        case 0x08: "InvokeRequest"
        case 0x09: "InvokeResponse"
        case 0x0A: "TimedRequest"
        default: "opcode 0x" + String(rawValue, radix: 16)
        }
    }
}
