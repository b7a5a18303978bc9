import MatterCore
import Testing

@testable import MatterTransport

/// The receive path's decisions, without a node: which message opens an unsecured session, and where
/// a decrypted message goes (spec 4.4, 4.12, 4.13.1).
@Suite("Inbound routing")
struct InboundRouteTests {
    static func payload(
        initiator: Bool = true, needsAck: Bool = true, protocolID: ProtocolID = .interactionModel, opcode: UInt8 = 0x08
    ) -> PayloadHeader {
        PayloadHeader(
            isInitiator: initiator, needsAck: needsAck, opcode: opcode, exchangeID: 7, protocolID: protocolID)
    }

    static let standaloneAck = payload(
        initiator: false, needsAck: false, protocolID: .secureChannel, opcode: SecureChannelOpcode.standaloneAck)

    @Test("A duplicate is dropped, acknowledged when the peer asked for an acknowledgement")
    func duplicate() {
        for needsAck in [true, false] {
            for hasExchange in [true, false] {
                let route = InboundRoute.decide(
                    verdict: .duplicate, payload: Self.payload(needsAck: needsAck), hasExchange: hasExchange,
                    hasHandler: true)
                #expect(route == .duplicate(acknowledge: needsAck))
            }
        }
    }

    @Test("A new standalone acknowledgement ends at the acknowledgement bookkeeping")
    func standaloneAcknowledgement() {
        #expect(
            InboundRoute.decide(verdict: .new, payload: Self.standaloneAck, hasExchange: true, hasHandler: true)
                == .acknowledgementOnly)
        #expect(
            InboundRoute.decide(verdict: .new, payload: Self.standaloneAck, hasExchange: false, hasHandler: true)
                == .acknowledgementOnly)
    }

    @Test("A message of a known exchange is delivered to it, whoever initiated")
    func deliver() {
        for initiator in [true, false] {
            #expect(
                InboundRoute.decide(
                    verdict: .new, payload: Self.payload(initiator: initiator), hasExchange: true, hasHandler: false)
                    == .deliver)
        }
    }

    @Test("Only a peer's initiating message with a handler for its protocol opens an exchange")
    func openExchange() {
        #expect(
            InboundRoute.decide(verdict: .new, payload: Self.payload(), hasExchange: false, hasHandler: true)
                == .openExchange)
        // A reply to an exchange we no longer have: dropped, acknowledged so the peer stops retransmitting.
        #expect(
            InboundRoute.decide(
                verdict: .new, payload: Self.payload(initiator: false), hasExchange: false, hasHandler: true)
                == .unhandled(acknowledge: true))
        // A protocol nobody handles.
        #expect(
            InboundRoute.decide(
                verdict: .new, payload: Self.payload(needsAck: false), hasExchange: false, hasHandler: false)
                == .unhandled(acknowledge: false))
    }

    @Test("The unsecured session is keyed by the initiator's source ID, or by ours echoed as destination")
    func ephemeralNodeID() {
        let initiator = MessageHeader(sessionID: 0, messageCounter: 1, source: NodeID(0xAA))
        #expect(UnsecuredAdmission.ephemeralNodeID(of: initiator) == NodeID(0xAA))
        let reply = MessageHeader(sessionID: 0, messageCounter: 1, destination: .node(NodeID(0xBB)))
        #expect(UnsecuredAdmission.ephemeralNodeID(of: reply) == NodeID(0xBB))
        #expect(UnsecuredAdmission.ephemeralNodeID(of: MessageHeader(sessionID: 0, messageCounter: 1)) == nil)
    }

    @Test("Only a handshake's initiating message opens an unsecured session")
    func unsecuredAdmission() {
        let fromInitiator = MessageHeader(sessionID: 0, messageCounter: 1, source: NodeID(0xAA))
        let toUs = MessageHeader(sessionID: 0, messageCounter: 1, destination: .node(NodeID(0xBB)))
        let handshake = Self.payload(protocolID: .secureChannel, opcode: 0x20)
        #expect(
            UnsecuredAdmission.decide(header: fromInitiator, payload: handshake, settledRetransmission: false) == .open)
        // A responder's message (no source) for a session we do not have.
        #expect(
            UnsecuredAdmission.decide(
                header: toUs, payload: Self.payload(initiator: false), settledRetransmission: false)
                == .unknownSession)
        // Not flagged as initiator.
        #expect(
            UnsecuredAdmission.decide(
                header: fromInitiator, payload: Self.payload(initiator: false), settledRetransmission: false)
                == .unknownSession)
        // A standalone ack after the handshake finished: settled if it settled our retransmission.
        #expect(
            UnsecuredAdmission.decide(header: toUs, payload: Self.standaloneAck, settledRetransmission: true)
                == .settled)
        #expect(
            UnsecuredAdmission.decide(header: toUs, payload: Self.standaloneAck, settledRetransmission: false)
                == .unknownSession)
        // A standalone ack never opens a session, even from an initiator.
        var initiatorAck = Self.standaloneAck
        initiatorAck.isInitiator = true
        #expect(
            UnsecuredAdmission.decide(header: fromInitiator, payload: initiatorAck, settledRetransmission: false)
                == .unknownSession)
    }
}
