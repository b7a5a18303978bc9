import MatterCore
package import MatterTransport

/// The Secure Channel protocol's handler for exchanges peers open: PBKDFParamRequest goes to the
/// PASE responder, Sigma1 to the CASE responder, CloseSession ends the session it arrives on.
/// Register it on the node with `install(on:)`; the node owns it (not `Sendable`).
package final class SecureChannelResponder: UnsolicitedMessageHandler {
    package let pase: PASEResponder?
    package let caseResponder: CASEResponder?
    private let log = Logger(label: "secure-channel")

    package init(pase: PASEResponder?, case caseResponder: CASEResponder? = nil) {
        self.pase = pase
        self.caseResponder = caseResponder
    }

    /// Registers this responder for protocol 0x0000 on `node`.
    package func install(on node: isolated TransportNode) {
        node.setUnsolicitedHandler(self, for: .secureChannel)
    }

    package func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        switch message.opcode {
        case SecureChannelOpcode.pbkdfParamRequest:
            if let pase { pase.begin(message, on: exchange, node: node) } else { exchange.close() }
        case SecureChannelOpcode.sigma1:
            if let caseResponder {
                caseResponder.begin(message, on: exchange, node: node)
            } else {
                exchange.close()
            }
        case SecureChannelOpcode.statusReport:
            if let report = try? StatusReport(decoding: message.payload),
                report.protocolCode == StatusReport.SecureChannelCode.closeSession, case .secure = exchange.session
            {
                log.info("peer closed session \(exchange.session)")
                exchange.close()
                node.removeSecureSession(exchange.session)
            } else {
                exchange.close()
            }
        default:
            log.debug("unhandled secure-channel opcode 0x\(hexDigits(message.opcode, width: 2))")
            exchange.close()
        }
    }
}
