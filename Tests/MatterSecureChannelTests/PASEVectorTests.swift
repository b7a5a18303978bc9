import MatterCore
import MatterCrypto
import MatterTestSupport
import MatterTransport
import Testing

@testable import MatterSecureChannel

/// The PASE digest's captured messages and derived values (pase.md §2-§5).
@Suite("PASE messages and key derivation vectors")
struct PASEVectorTests {
    static let request = Hex.decode(
        "15300120b2901e92036f7bca007a3a1bf24bd71f18772105e83479c92b7a8af35e8182742502498d240300280435052501881325022c011818"
    )!
    static let response = Hex.decode(
        "15300120b2901e92036f7bca007a3a1bf24bd71f18772105e83479c92b7a8af35e81827430022008070f685f2077779b824adf91e4bab6253b9d1a3c0f6615c6d447780f0feef325039c8d35042501e803300220163f8501fbbc0e6a8f69a9b999d038ca388ecffccc18fe259c4253f26e494dda1835052501881325022c011818"
    )!

    @Test func capturedRequestDecodesAndReencodesByteForByte() throws {
        let request = try PBKDFParamRequest(decoding: Self.request)
        #expect(request.initiatorSessionID == 0x8D49)
        #expect(request.passcodeID == 0)
        #expect(request.hasPBKDFParameters == false)
        #expect(request.sessionParameters == SessionParameters(idleInterval: 5000, activeInterval: 300))
        #expect(request.encoded() == Self.request)
    }

    @Test func capturedResponseDecodesAndReencodesByteForByte() throws {
        let response = try PBKDFParamResponse(decoding: Self.response)
        #expect(response.responderSessionID == 0x8D9C)
        #expect(response.pbkdf?.iterations == 1000)
        #expect(response.pbkdf?.salt.count == 32)
        #expect(response.sessionParameters?.mrp.idleInterval == 5000)
        #expect(response.encoded() == Self.response)
    }

    @Test func contextHashMatchesTheSDK() throws {
        #expect(
            try PASEContext.hash(request: Self.request, response: Self.response)
                == Hex.decode("c49718b0275b6f81fd6a081f6c34c5833382b75b3bd997895d13a51c71a02855"))
    }

    @Test func sessionKeysFromKeMatchTheDigest() throws {
        // pase.md §5.1: Ke of the SDK vector → I2R, R2I, AttestationChallenge.
        let ke = try #require(Hex.decode("ea3276d68334576097e04b19ee5a3a8b"))
        let initiator = try SessionKeyDerivation.keys(
            secret: ke, salt: [], info: SessionKeyDerivation.sessionKeysInfo,
            isInitiator: true)
        #expect(initiator.encrypt == Hex.decode("355b28bc68f5566b771f14b8c64b001b"))
        #expect(initiator.decrypt == Hex.decode("fa62711883076f954451532aef1578be"))
        #expect(initiator.attestationChallenge == Hex.decode("78f2354c6d20cbafc8f44b03955eb163"))
        let responder = try SessionKeyDerivation.keys(
            secret: ke, salt: [], info: SessionKeyDerivation.sessionKeysInfo,
            isInitiator: false)
        #expect(responder.encrypt == initiator.decrypt)
    }

    @Test(arguments: [
        ([UInt8](), "PBKDFParamRequest"),
        (Array(request.prefix(20)), "PBKDFParamRequest"),
        (
            [0x15, 0x30, 0x01, 0x02, 0x00, 0x01, 0x25, 0x02, 0x01, 0x00, 0x24, 0x03, 0x00, 0x28, 0x04, 0x18],
            "initiatorRandom has 2 bytes"
        ),
        ([0x15, 0x30, 0x01, 0x02, 0x00, 0x01, 0x18], "tag 2 is missing"),
    ])
    func malformedRequestsAreRejected(bytes: [UInt8], fragment: String) {
        do {
            _ = try PBKDFParamRequest(decoding: bytes)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains(fragment))
        }
    }
}
