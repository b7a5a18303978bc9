/// Why a datagram's headers could not be decoded. Such datagrams are dropped and counted.
package enum MessageCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated(String)
    case unsupportedVersion(UInt8)
    case reservedSessionType(UInt8)
    case reservedDestinationSize
    case invalidGroupAddressing
    case invalidStatusReport(String)

    package var description: String {
        switch self {
        case .truncated(let detail): "message truncated: \(detail)"
        case .unsupportedVersion(let v): "unsupported message format version \(v)"
        case .reservedSessionType(let t): "reserved session type \(t)"
        case .reservedDestinationSize: "reserved destination-size field (DSIZ 3)"
        case .invalidGroupAddressing: "session type and destination disagree (group vs unicast)"
        case .invalidStatusReport(let detail): "invalid StatusReport: \(detail)"
        }
    }

    /// Decodes with `body`, turning a short buffer into `.truncated`.
    static func decoding<T>(_ body: () throws -> T) throws(MessageCodecError) -> T {
        do {
            return try body()
        } catch let error as MessageCodecError {
            throw error
        } catch {
            throw .truncated(String(describing: error))
        }
    }
}
