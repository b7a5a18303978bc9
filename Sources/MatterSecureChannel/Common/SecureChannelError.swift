package import MatterCrypto
import MatterTLV
package import MatterTransport

/// Why a PASE or CASE handshake failed, on either side.
package enum SecureChannelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The passcode did not match (SPAKE2+ confirmation failed).
    case wrongPasscode
    /// The peer answered with a failure StatusReport.
    case peerReportedFailure(StatusReport)
    /// The peer is busy with another handshake; retry after the given time.
    case busy(retryAfterMilliseconds: UInt16)
    /// The device's commissioning window is closed.
    case commissioningWindowClosed
    /// A handshake message was malformed or out of order.
    case invalidMessage(String)
    /// CASE: the destination identifier matches no fabric of the responder.
    case noSharedTrustRoots
    /// CASE: the peer's certificates or signature did not verify.
    case invalidCredentials(String)
    /// The transport failed (no answer, session gone...).
    case transport(TransportError)
    /// A cryptographic operation failed.
    case crypto(CryptoError)

    package var description: String {
        switch self {
        case .wrongPasscode: "wrong setup passcode (PASE confirmation failed)"
        case .peerReportedFailure(let report): "the peer ended the handshake: \(report)"
        case .busy(let ms): "device busy with another session establishment; retry in \(ms) ms"
        case .commissioningWindowClosed:
            "the device's commissioning window is closed (it is commissioned already, or its window timed out)"
        case .invalidMessage(let detail): "invalid handshake message: \(detail)"
        case .noSharedTrustRoots: "no shared trust roots (the device is not on this fabric)"
        case .invalidCredentials(let detail): "peer credentials rejected: \(detail)"
        case .transport(let error): "transport: \(error)"
        case .crypto(let error): "crypto: \(error)"
        }
    }

    /// Decodes a handshake payload's top-level structure.
    static func decoding(_ name: String, _ bytes: [UInt8]) throws(SecureChannelError) -> TLVElement {
        do {
            let element = try TLVElement.decode(bytes)
            guard case .structure = element.value else {
                throw SecureChannelError.invalidMessage("\(name): not a structure")
            }
            return element
        } catch let error as SecureChannelError {
            throw error
        } catch {
            throw .invalidMessage("\(name): \(error)")
        }
    }
}
