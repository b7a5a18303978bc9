import Foundation
import MatterCrypto
import MatterTestSupport
import Testing

@Suite("SPAKE2+ (draft-01, as Matter PASE uses it)")
struct Spake2PlusTests {
    struct File: Decodable { let vectors: [Vector] }
    struct Vector: Decodable {
        let name, context, proverIdentity, verifierIdentity: String
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The vector file uses the draft's own symbol names (L, X, Ka, KcA, ...).
        let w0, w1, L, x, X, y, Y, Z, V, K, Ka, Ke, KcA, KcB, cA, cB: String
        let transcriptLength: Int
        let passcode: UInt32?
        let salt: String?
        let iterations: Int?
        let pbkdfParamRequest, pbkdfParamResponse, verifierBase64: String?
        let sessionKeys: SessionKeys?
        struct SessionKeys: Decodable { let i2r, r2i, attestationChallenge: String }
    }

    static func vectors() throws -> [Vector] { try VectorFile.load("spake2plus", as: File.self, in: .module).vectors }

    @Test("M and N are the draft-01 P-256 constants")
    func constants() throws {
        #expect(Spake2Plus.pointM.count == 65)
        #expect(Spake2Plus.pointN.count == 65)
        // Both are valid points.
        _ = try P256PublicKey(x963Representation: Spake2Plus.pointM)
        _ = try P256PublicKey(x963Representation: Spake2Plus.pointN)
    }

    @Test("Known-answer run: every intermediate byte for byte", arguments: 0..<2)
    func knownAnswer(index: Int) throws {
        let vector = try Self.vectors()[index]
        let context = hex(vector.context)
        let idP = hex(vector.proverIdentity)
        let idV = hex(vector.verifierIdentity)
        let w0 = hex(vector.w0)
        let w1 = hex(vector.w1)

        #expect(hexString(try Spake2Plus.verifierPoint(w1: w1)) == vector.L, "L = w1·G")

        let prover = try Spake2PlusProver(context: context, w0: w0, w1: w1, proverIdentity: idP, verifierIdentity: idV)
        let verifier = try Spake2PlusVerifier(
            context: context, w0: w0, l: hex(vector.L),
            proverIdentity: idP, verifierIdentity: idV)

        let shareX = try prover.makeShare(fixedScalar: hex(vector.x))
        #expect(hexString(shareX) == vector.X, "X")
        let (shareY, cB) = try verifier.respond(toProverShare: shareX, fixedScalar: hex(vector.y))
        #expect(hexString(shareY) == vector.Y, "Y")
        #expect(hexString(cB) == vector.cB, "cB")
        #expect(verifier.sharedKey == nil, "no key before the prover's confirmation")

        let cA = try prover.confirm(verifierShare: shareY, verifierConfirmation: cB)
        #expect(hexString(cA) == vector.cA, "cA")
        try verifier.verifyProverConfirmation(cA)

        for (side, maybeSchedule) in [("prover", prover.keySchedule), ("verifier", verifier.keySchedule)] {
            let schedule = try #require(maybeSchedule, "\(side) key schedule")
            #expect(hexString(schedule.z) == vector.Z, "\(side) Z")
            #expect(hexString(schedule.v) == vector.V, "\(side) V")
            #expect(schedule.transcript.count == vector.transcriptLength, "\(side) |TT|")
            #expect(hexString(try SHA256.hash(schedule.transcript)) == vector.K, "\(side) K = SHA-256(TT)")
            #expect(hexString(schedule.k) == vector.K, "\(side) K")
            #expect(hexString(schedule.ka) == vector.Ka, "\(side) Ka")
            #expect(hexString(schedule.ke) == vector.Ke, "\(side) Ke")
            #expect(hexString(schedule.kcA) == vector.KcA, "\(side) KcA")
            #expect(hexString(schedule.kcB) == vector.KcB, "\(side) KcB")
            #expect(hexString(schedule.cA) == vector.cA, "\(side) cA")
            #expect(hexString(schedule.cB) == vector.cB, "\(side) cB")
        }
        #expect(prover.sharedKey.map(hexString) == vector.Ke)
        #expect(verifier.sharedKey.map(hexString) == vector.Ke)

        // The transcript's layout: 8-byte little-endian lengths, Context first, then the identities, M and N.
        let transcript = try #require(prover.keySchedule?.transcript)
        #expect(Array(transcript[0..<8]) == [UInt8(context.count), 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(transcript[8..<(8 + context.count)]) == context)
    }

    @Test("Matter-shaped vector: PASE context hash, passcode → w0/w1/L, verifier bytes, session keys")
    func matterPASE() throws {
        let vector = try #require(try Self.vectors().first { $0.passcode != nil })
        let passcode = try #require(vector.passcode)
        let salt = hex(try #require(vector.salt))
        let iterations = try #require(vector.iterations)

        let contextHash = try SHA256.hash(
            Array("CHIP PAKE V1 Commissioning".utf8) + hex(try #require(vector.pbkdfParamRequest))
                + hex(try #require(vector.pbkdfParamResponse)))
        #expect(hexString(contextHash) == vector.context)

        let secrets = try Spake2Plus.proverSecrets(passcode: passcode, salt: salt, iterations: iterations)
        #expect(hexString(secrets.w0) == vector.w0)
        #expect(hexString(secrets.w1) == vector.w1)
        let stored = try Spake2PlusPasscodeVerifier(passcode: passcode, salt: salt, iterations: iterations)
        #expect(hexString(stored.w0) == vector.w0)
        #expect(hexString(stored.l) == vector.L)
        #expect(stored.serialized.count == 97)
        #expect(Data(stored.serialized).base64EncodedString() == vector.verifierBase64)
        let reparsed = try Spake2PlusPasscodeVerifier(serialized: stored.serialized)
        #expect(reparsed.w0 == stored.w0 && reparsed.l == stored.l)

        let prover = try Spake2PlusProver(context: contextHash, passcode: passcode, salt: salt, iterations: iterations)
        let verifier = try Spake2PlusVerifier(context: contextHash, passcodeVerifier: reparsed)
        let shareX = try prover.makeShare(fixedScalar: hex(vector.x))
        let (shareY, cB) = try verifier.respond(toProverShare: shareX, fixedScalar: hex(vector.y))
        let cA = try prover.confirm(verifierShare: shareY, verifierConfirmation: cB)
        try verifier.verifyProverConfirmation(cA)
        #expect(hexString(shareX) == vector.X)
        #expect(hexString(shareY) == vector.Y)
        #expect(hexString(cA) == vector.cA)
        #expect(hexString(cB) == vector.cB)

        let ke = try #require(prover.sharedKey)
        #expect(hexString(ke) == vector.Ke)
        let expectedKeys = try #require(vector.sessionKeys)
        let keys = try HKDFSHA256.deriveKey(
            inputKeyMaterial: ke, salt: [], info: Array("SessionKeys".utf8), outputByteCount: 48)
        #expect(hexString(Array(keys[0..<16])) == expectedKeys.i2r)
        #expect(hexString(Array(keys[16..<32])) == expectedKeys.r2i)
        #expect(hexString(Array(keys[32..<48])) == expectedKeys.attestationChallenge)
    }

    @Test("Random scalars: prover and verifier agree on Ke")
    func randomRun() throws {
        let salt = try SecureRandom.bytes(count: 32)
        let context = try SecureRandom.bytes(count: 32)
        let stored = try Spake2PlusPasscodeVerifier(passcode: 34_567_890, salt: salt, iterations: 1000)
        var keys: [[UInt8]] = []
        for _ in 0..<2 {
            let prover = try Spake2PlusProver(context: context, passcode: 34_567_890, salt: salt, iterations: 1000)
            let verifier = try Spake2PlusVerifier(context: context, passcodeVerifier: stored)
            let shareX = try prover.makeShare()
            let (shareY, cB) = try verifier.respond(toProverShare: shareX)
            let cA = try prover.confirm(verifierShare: shareY, verifierConfirmation: cB)
            try verifier.verifyProverConfirmation(cA)
            let proverKey = try #require(prover.sharedKey)
            #expect(proverKey.count == 16)
            #expect(proverKey == verifier.sharedKey)
            keys.append(proverKey)
        }
        #expect(keys[0] != keys[1], "fresh scalars give fresh keys")
    }

    @Test("Wrong passcode: the prover rejects cB; a forged cA is rejected by the verifier")
    func wrongPasscode() throws {
        let salt = Array("SPAKE2P Key Salt".utf8)
        let context = try SHA256.hash(Array("context".utf8))
        let stored = try Spake2PlusPasscodeVerifier(passcode: 20_202_021, salt: salt, iterations: 1000)
        let prover = try Spake2PlusProver(context: context, passcode: 20_202_022, salt: salt, iterations: 1000)
        let verifier = try Spake2PlusVerifier(context: context, passcodeVerifier: stored)
        let (shareY, cB) = try verifier.respond(toProverShare: try prover.makeShare())
        expectCryptoError(.confirmationFailed) { try prover.confirm(verifierShare: shareY, verifierConfirmation: cB) }
        #expect(prover.sharedKey == nil)
        // The prover's own cA (from its wrong-passcode schedule) does not convince the verifier either.
        let forged = try #require(prover.keySchedule?.cA)
        expectCryptoError(.confirmationFailed) { try verifier.verifyProverConfirmation(forged) }
        #expect(verifier.sharedKey == nil)
    }

    @Test("Tampered confirmations fail; a spent exchange cannot continue")
    func tamperedConfirmation() throws {
        let stored = try Spake2PlusPasscodeVerifier(
            passcode: 20_202_021, salt: Array("SPAKE2P Key Salt".utf8), iterations: 1000)
        let context = [UInt8](repeating: 7, count: 32)

        let prover = try Spake2PlusProver(
            context: context, passcode: 20_202_021, salt: Array("SPAKE2P Key Salt".utf8),
            iterations: 1000)
        let verifier = try Spake2PlusVerifier(context: context, passcodeVerifier: stored)
        let shareX = try prover.makeShare()
        let (shareY, cB) = try verifier.respond(toProverShare: shareX)
        var badCB = cB
        badCB[0] ^= 1
        expectCryptoError(.confirmationFailed) {
            try prover.confirm(verifierShare: shareY, verifierConfirmation: badCB)
        }
        expectCryptoError(.invalidState) { try prover.confirm(verifierShare: shareY, verifierConfirmation: cB) }

        let verifier2 = try Spake2PlusVerifier(context: context, passcodeVerifier: stored)
        let prover2 = try Spake2PlusProver(
            context: context, passcode: 20_202_021, salt: Array("SPAKE2P Key Salt".utf8),
            iterations: 1000)
        let (shareY2, cB2) = try verifier2.respond(toProverShare: try prover2.makeShare())
        var cA = try prover2.confirm(verifierShare: shareY2, verifierConfirmation: cB2)
        cA[31] ^= 0x80
        expectCryptoError(.confirmationFailed) { try verifier2.verifyProverConfirmation(cA) }
        expectCryptoError(.invalidState) { try verifier2.verifyProverConfirmation(cA) }

        let verifier3 = try Spake2PlusVerifier(context: context, passcodeVerifier: stored)
        let prover3 = try Spake2PlusProver(
            context: context, passcode: 20_202_021, salt: Array("SPAKE2P Key Salt".utf8), iterations: 1000)
        let (shareY3, cB3) = try verifier3.respond(toProverShare: try prover3.makeShare())
        let cA3 = try prover3.confirm(verifierShare: shareY3, verifierConfirmation: cB3)
        expectCryptoError(.invalidLength) { try verifier3.verifyProverConfirmation(Array(cA3.prefix(31))) }
    }

    @Test("Steps out of order are typed errors")
    func stateMachine() throws {
        let vector = try Self.vectors()[0]
        let prover = try Spake2PlusProver(context: [], w0: hex(vector.w0), w1: hex(vector.w1))
        expectCryptoError(.invalidState) {
            try prover.confirm(verifierShare: hex(vector.Y), verifierConfirmation: hex(vector.cB))
        }
        let fresh = try Spake2PlusProver(context: [], w0: hex(vector.w0), w1: hex(vector.w1))
        _ = try fresh.makeShare()
        expectCryptoError(.invalidState) { try fresh.makeShare() }
        let verifier = try Spake2PlusVerifier(context: [], w0: hex(vector.w0), l: hex(vector.L))
        expectCryptoError(.invalidState) { try verifier.verifyProverConfirmation(hex(vector.cA)) }
        _ = try verifier.respond(toProverShare: hex(vector.X))
        expectCryptoError(.invalidState) { try verifier.respond(toProverShare: hex(vector.X)) }
    }

    @Test("Received shares are validated: length, encoding, on-curve, identity after unblinding")
    func invalidShares() throws {
        let vector = try Self.vectors()[0]
        let w0 = hex(vector.w0)
        let w1 = hex(vector.w1)
        let l = hex(vector.L)
        let goodX = hex(vector.X)
        var offCurve = goodX
        offCurve[64] ^= 1
        var compressedPrefix = goodX
        compressedPrefix[0] = 0x02
        let identity = [UInt8](repeating: 0, count: 65)
        for bad in [Array(goodX.prefix(64)), goodX + [0], [0x00], offCurve, compressedPrefix, identity] {
            let verifier = try Spake2PlusVerifier(context: [], w0: w0, l: l)
            expectCryptoError(.invalidPoint) { try verifier.respond(toProverShare: bad) }
        }
        let goodY = hex(vector.Y)
        var badY = goodY
        badY[10] ^= 1
        let prover = try Spake2PlusProver(context: [], w0: w0, w1: w1)
        _ = try prover.makeShare()
        expectCryptoError(.invalidPoint) {
            try prover.confirm(verifierShare: badY, verifierConfirmation: hex(vector.cB))
        }
        let prover2 = try Spake2PlusProver(context: [], w0: w0, w1: w1)
        _ = try prover2.makeShare()
        expectCryptoError(.invalidLength) {
            try prover2.confirm(verifierShare: goodY, verifierConfirmation: [UInt8](repeating: 0, count: 16))
        }
    }

    @Test("A share equal to w0·M (or w0·N) is rejected: it would make Z and V the identity")
    func degenerateShares() throws {
        let vector = try Self.vectors()[0]
        // With w0 = 1, w0·M is M itself and w0·N is N.
        let one = [UInt8](repeating: 0, count: 31) + [1]
        let verifier = try Spake2PlusVerifier(context: [], w0: one, l: hex(vector.L))
        expectCryptoError(.invalidPoint) { try verifier.respond(toProverShare: Spake2Plus.pointM) }
        let prover = try Spake2PlusProver(context: [], w0: one, w1: hex(vector.w1))
        _ = try prover.makeShare()
        expectCryptoError(.invalidPoint) {
            try prover.confirm(verifierShare: Spake2Plus.pointN, verifierConfirmation: [UInt8](repeating: 0, count: 32))
        }
    }

    @Test("Scalars and PBKDF parameters are validated")
    func invalidParameters() throws {
        let vector = try Self.vectors()[0]
        let w0 = hex(vector.w0)
        let w1 = hex(vector.w1)
        let order: [UInt8] = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        expectCryptoError(.invalidLength) { try Spake2PlusProver(context: [], w0: Array(w0.prefix(31)), w1: w1) }
        expectCryptoError(.invalidParameter) { try Spake2PlusProver(context: [], w0: order, w1: w1) }
        expectCryptoError(.invalidParameter) {
            try Spake2PlusProver(context: [], w0: w0, w1: [UInt8](repeating: 0, count: 32))
        }
        expectCryptoError(.invalidPoint) {
            try Spake2PlusVerifier(context: [], w0: w0, l: Array(repeating: 4, count: 65))
        }
        expectCryptoError(.invalidLength) {
            try Spake2PlusPasscodeVerifier(serialized: [UInt8](repeating: 1, count: 96))
        }
        let salt = Array("SPAKE2P Key Salt".utf8)
        expectCryptoError(.invalidParameter) { try Spake2Plus.proverSecrets(passcode: 1, salt: salt, iterations: 999) }
        expectCryptoError(.invalidParameter) {
            try Spake2Plus.proverSecrets(passcode: 1, salt: salt, iterations: 100_001)
        }
        expectCryptoError(.invalidParameter) {
            try Spake2Plus.proverSecrets(passcode: 1, salt: Array(salt.prefix(15)), iterations: 1000)
        }
        expectCryptoError(.invalidParameter) {
            try Spake2Plus.proverSecrets(passcode: 1, salt: [UInt8](repeating: 1, count: 33), iterations: 1000)
        }
        let prover = try Spake2PlusProver(context: [], w0: w0, w1: w1)
        expectCryptoError(.invalidParameter) { try prover.makeShare(fixedScalar: order) }
    }
}
