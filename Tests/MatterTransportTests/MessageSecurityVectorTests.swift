import MatterCore
import MatterTestSupport
import Testing

@testable import MatterTransport

/// The captured chip-tool AES-CCM messages of the message-layer digest (§3): the header is the AAD,
/// the nonce is security flags ‖ counter ‖ sender node ID.
@Suite("Message encryption vectors")
struct MessageSecurityVectorTests {
    @Test func encryptsTheCapturedInvokeRequest() throws {
        let key = try #require(Hex.decode("44d43c91d227f3ba0824c5d87cb81b33"))
        let header = MessageHeader(sessionID: 0x0011, messageCounter: 41)
        #expect(header.encoded == Hex.decode("00 1100 00 29000000"))
        let nonce = MessageSecurity.nonce(securityFlags: header.securityFlags, counter: 41, nodeID: 0)
        #expect(nonce == Hex.decode("00 29000000 0000000000000000"))
        let plaintext = try #require(
            Hex.decode(
                "05 08 58 28 01 00 15 36 00 15 37 00 24 00 01 24 02 06 24 03 01 18 35 01 18 18 18 18"))
        let sealed = try MessageSecurity.seal(key: key, nonce: nonce, aad: header.encoded, plaintext: plaintext)
        #expect(
            sealed
                == Hex.decode(
                    "bd53fa7926576111994ef314240b838e88a5e36bcc81c1992a838afe16be4cf4742d9cd7e582d793491558d8"))
        // The plaintext starts with the protocol header: I|R, IM InvokeRequest, exchange 0x2858.
        var reader = ByteReader(plaintext)
        let payloadHeader = try PayloadHeader(from: &reader)
        #expect(payloadHeader.isInitiator && payloadHeader.needsAck)
        #expect(payloadHeader.opcode == 0x08 && payloadHeader.exchangeID == 0x2858)
        #expect(payloadHeader.protocolID == .interactionModel)
    }

    @Test func decryptsTheCapturedDatagram() throws {
        let key = try #require(Hex.decode("66633197439c17b97e10ee47c808804a"))
        let datagram = try #require(
            Hex.decode(
                "00020000f243e90031b566ec8b5bf417e480f3d5115919b5239135370bf9bf69551175877719fcf35d4b471fb05ebeb510adc6789450e5d2e080efa83af0a6af1b0235a7d1c632"
            ))
        var reader = ByteReader(datagram)
        let header = try MessageHeader(from: &reader)
        #expect(header.sessionID == 2)
        #expect(header.messageCounter == 15_287_282)
        let aad = Array(datagram[0..<reader.offset])
        let nonce = MessageSecurity.nonce(
            securityFlags: header.securityFlags, counter: header.messageCounter, nodeID: 0)
        let plaintext = try #require(MessageSecurity.open(key: key, nonce: nonce, aad: aad, sealed: reader.readRest()))
        #expect(
            plaintext
                == Hex.decode(
                    "050870000100152800280136021537002400002401302402021835012400002c010257572402032503b80b18181818"))
        // One flipped bit anywhere fails authentication.
        var tampered = datagram
        tampered[tampered.count - 1] ^= 0x80
        var again = ByteReader(tampered)
        _ = try MessageHeader(from: &again)
        #expect(MessageSecurity.open(key: key, nonce: nonce, aad: aad, sealed: again.readRest()) == nil)
    }
}
