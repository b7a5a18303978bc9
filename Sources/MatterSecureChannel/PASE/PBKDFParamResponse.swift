import MatterTLV

/// PBKDFParamResponse (Secure Channel opcode 0x21), device → commissioner:
///
/// | tag | field | type |
/// |---|---|---|
/// | 1 | initiatorRandom | octets, 32 (echo) |
/// | 2 | responderRandom | octets, 32 |
/// | 3 | responderSessionId | uint16 |
/// | 4 | pbkdf_parameters | struct {1: iterations uint32, 2: salt octets 16...32}; only if the request had none |
/// | 5 | responderSessionParams | struct, optional |
struct PBKDFParamResponse: Equatable, Sendable {
    var initiatorRandom: [UInt8]
    var responderRandom: [UInt8]
    var responderSessionID: UInt16
    var pbkdf: PBKDFParameters?
    var sessionParameters: SessionParameters?

    func encoded() -> [UInt8] {
        var w = TLVWriter(capacity: 160)
        w.putStructure { w in
            w.put(initiatorRandom, tag: .context(1))
            w.put(responderRandom, tag: .context(2))
            w.put(responderSessionID, tag: .context(3))
            if let pbkdf {
                w.putStructure(tag: .context(4)) { w in
                    w.put(pbkdf.iterations, tag: .context(1))
                    w.put(pbkdf.salt, tag: .context(2))
                }
            }
            sessionParameters?.encode(to: &w, tag: .context(5))
        }
        return w.bytes
    }

    init(
        initiatorRandom: [UInt8], responderRandom: [UInt8], responderSessionID: UInt16, pbkdf: PBKDFParameters?,
        sessionParameters: SessionParameters?
    ) {
        self.initiatorRandom = initiatorRandom
        self.responderRandom = responderRandom
        self.responderSessionID = responderSessionID
        self.pbkdf = pbkdf
        self.sessionParameters = sessionParameters
    }

    init(decoding bytes: [UInt8]) throws(SecureChannelError) {
        let element = try SecureChannelError.decoding("PBKDFParamResponse", bytes)
        do {
            initiatorRandom = try element.decodeMember(.context(1))
            responderRandom = try element.decodeMember(.context(2))
            responderSessionID = try element.decodeMember(.context(3))
            if let parameters = element[context: 4] {
                pbkdf = PBKDFParameters(
                    iterations: try parameters.decodeMember(.context(1)),
                    salt: try parameters.decodeMember(.context(2)))
            }
            sessionParameters = try element[context: 5].map { e throws(TLVError) in try SessionParameters(element: e) }
        } catch {
            throw .invalidMessage("PBKDFParamResponse: \(error)")
        }
        guard initiatorRandom.count == 32, responderRandom.count == 32 else {
            throw .invalidMessage("PBKDFParamResponse: random values must be 32 bytes")
        }
        guard responderSessionID != 0 else { throw .invalidMessage("PBKDFParamResponse: responderSessionId is 0") }
        if let pbkdf { try pbkdf.validate() }
    }
}

/// The device's PBKDF2 parameters for its passcode verifier.
public struct PBKDFParameters: Equatable, Sendable {
    public var iterations: UInt32
    public var salt: [UInt8]

    public init(iterations: UInt32, salt: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
    }

    /// Iterations 1000...100000, salt 16...32 bytes (spec 3.9).
    package func validate() throws(SecureChannelError) {
        guard (1000...100_000).contains(iterations) else {
            throw .invalidMessage("PBKDF iterations \(iterations) outside 1000...100000")
        }
        guard (16...32).contains(salt.count) else {
            throw .invalidMessage("PBKDF salt of \(salt.count) bytes outside 16...32")
        }
    }
}
