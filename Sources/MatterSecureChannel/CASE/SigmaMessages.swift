import MatterTLV

/// Sigma1 (opcode 0x30), initiator → responder:
///
/// | tag | field | type |
/// |---|---|---|
/// | 1 | initiatorRandom | octets 32 |
/// | 2 | initiatorSessionId | uint16 |
/// | 3 | destinationId | octets 32 |
/// | 4 | initiatorEphPubKey | octets 65 |
/// | 5 | initiatorSessionParams | struct, optional |
/// | 6 | resumptionId | octets 16, optional (with 7) |
/// | 7 | initiatorResume1MIC | octets 16, optional (with 6) |
struct Sigma1: Equatable, Sendable {
    var initiatorRandom: [UInt8]
    var initiatorSessionID: UInt16
    var destinationID: [UInt8]
    var initiatorEphemeralPublicKey: [UInt8]
    var sessionParameters: SessionParameters?
    var resumption: (id: [UInt8], mic: [UInt8])?

    static func == (a: Sigma1, b: Sigma1) -> Bool { a.encoded() == b.encoded() }

    func encoded() -> [UInt8] {
        var w = TLVWriter(capacity: 220)
        w.putStructure { w in
            w.put(initiatorRandom, tag: .context(1))
            w.put(initiatorSessionID, tag: .context(2))
            w.put(destinationID, tag: .context(3))
            w.put(initiatorEphemeralPublicKey, tag: .context(4))
            sessionParameters?.encode(to: &w, tag: .context(5))
            if let resumption {
                w.put(resumption.id, tag: .context(6))
                w.put(resumption.mic, tag: .context(7))
            }
        }
        return w.bytes
    }

    init(
        initiatorRandom: [UInt8], initiatorSessionID: UInt16, destinationID: [UInt8],
        initiatorEphemeralPublicKey: [UInt8], sessionParameters: SessionParameters?,
        resumption: (id: [UInt8], mic: [UInt8])?
    ) {
        self.initiatorRandom = initiatorRandom
        self.initiatorSessionID = initiatorSessionID
        self.destinationID = destinationID
        self.initiatorEphemeralPublicKey = initiatorEphemeralPublicKey
        self.sessionParameters = sessionParameters
        self.resumption = resumption
    }

    init(decoding bytes: [UInt8]) throws(SecureChannelError) {
        let e = try SecureChannelError.decoding("Sigma1", bytes)
        initiatorRandom = try SigmaField.bytes(e, 1, "Sigma1.initiatorRandom", length: 32)
        initiatorSessionID = try SigmaField.uint16(e, 2, "Sigma1.initiatorSessionId")
        destinationID = try SigmaField.bytes(e, 3, "Sigma1.destinationId", length: 32)
        initiatorEphemeralPublicKey = try SigmaField.bytes(e, 4, "Sigma1.initiatorEphPubKey", length: 65)
        sessionParameters = try SigmaField.sessionParameters(e, 5, "Sigma1")
        let id = try SigmaField.optionalBytes(e, 6, "Sigma1.resumptionId", length: 16)
        let mic = try SigmaField.optionalBytes(e, 7, "Sigma1.initiatorResume1MIC", length: 16)
        switch (id, mic) {
        case (nil, nil): resumption = nil
        case (let id?, let mic?): resumption = (id, mic)
        default: throw .invalidMessage("Sigma1: resumptionId and initiatorResume1MIC must come together")
        }
    }
}

/// Sigma2 (opcode 0x31): `{1: responderRandom 32, 2: responderSessionId u16, 3: responderEphPubKey 65,
/// 4: encrypted2 (TBEData2 ‖ tag), 5: responderSessionParams?}`.
struct Sigma2: Equatable, Sendable {
    var responderRandom: [UInt8]
    var responderSessionID: UInt16
    var responderEphemeralPublicKey: [UInt8]
    var encrypted: [UInt8]
    var sessionParameters: SessionParameters?

    func encoded() -> [UInt8] {
        var w = TLVWriter(capacity: 600)
        w.putStructure { w in
            w.put(responderRandom, tag: .context(1))
            w.put(responderSessionID, tag: .context(2))
            w.put(responderEphemeralPublicKey, tag: .context(3))
            w.put(encrypted, tag: .context(4))
            sessionParameters?.encode(to: &w, tag: .context(5))
        }
        return w.bytes
    }

    init(
        responderRandom: [UInt8], responderSessionID: UInt16, responderEphemeralPublicKey: [UInt8], encrypted: [UInt8],
        sessionParameters: SessionParameters?
    ) {
        self.responderRandom = responderRandom
        self.responderSessionID = responderSessionID
        self.responderEphemeralPublicKey = responderEphemeralPublicKey
        self.encrypted = encrypted
        self.sessionParameters = sessionParameters
    }

    init(decoding bytes: [UInt8]) throws(SecureChannelError) {
        let e = try SecureChannelError.decoding("Sigma2", bytes)
        responderRandom = try SigmaField.bytes(e, 1, "Sigma2.responderRandom", length: 32)
        responderSessionID = try SigmaField.uint16(e, 2, "Sigma2.responderSessionId")
        responderEphemeralPublicKey = try SigmaField.bytes(e, 3, "Sigma2.responderEphPubKey", length: 65)
        encrypted = try SigmaField.bytes(e, 4, "Sigma2.encrypted2", length: nil)
        guard encrypted.count > 16 else { throw .invalidMessage("Sigma2.encrypted2 shorter than its tag") }
        sessionParameters = try SigmaField.sessionParameters(e, 5, "Sigma2")
    }
}

/// Sigma3 (opcode 0x32): `{1: encrypted3 (TBEData3 ‖ tag)}`.
struct Sigma3: Equatable, Sendable {
    var encrypted: [UInt8]

    func encoded() -> [UInt8] {
        var w = TLVWriter(capacity: 600)
        w.putStructure { w in w.put(encrypted, tag: .context(1)) }
        return w.bytes
    }

    init(encrypted: [UInt8]) { self.encrypted = encrypted }

    init(decoding bytes: [UInt8]) throws(SecureChannelError) {
        let e = try SecureChannelError.decoding("Sigma3", bytes)
        encrypted = try SigmaField.bytes(e, 1, "Sigma3.encrypted3", length: nil)
        guard encrypted.count > 16 else { throw .invalidMessage("Sigma3.encrypted3 shorter than its tag") }
    }
}

/// Sigma2_Resume (opcode 0x33): `{1: resumptionId 16, 2: sigma2ResumeMIC 16, 3: responderSessionId u16,
/// 4: responderSessionParams?}`.
struct Sigma2Resume: Equatable, Sendable {
    var resumptionID: [UInt8]
    var mic: [UInt8]
    var responderSessionID: UInt16
    var sessionParameters: SessionParameters?

    func encoded() -> [UInt8] {
        var w = TLVWriter(capacity: 80)
        w.putStructure { w in
            w.put(resumptionID, tag: .context(1))
            w.put(mic, tag: .context(2))
            w.put(responderSessionID, tag: .context(3))
            sessionParameters?.encode(to: &w, tag: .context(4))
        }
        return w.bytes
    }

    init(resumptionID: [UInt8], mic: [UInt8], responderSessionID: UInt16, sessionParameters: SessionParameters?) {
        self.resumptionID = resumptionID
        self.mic = mic
        self.responderSessionID = responderSessionID
        self.sessionParameters = sessionParameters
    }

    init(decoding bytes: [UInt8]) throws(SecureChannelError) {
        let e = try SecureChannelError.decoding("Sigma2_Resume", bytes)
        resumptionID = try SigmaField.bytes(e, 1, "Sigma2_Resume.resumptionId", length: 16)
        mic = try SigmaField.bytes(e, 2, "Sigma2_Resume.sigma2ResumeMIC", length: 16)
        responderSessionID = try SigmaField.uint16(e, 3, "Sigma2_Resume.responderSessionId")
        sessionParameters = try SigmaField.sessionParameters(e, 4, "Sigma2_Resume")
    }
}

/// The signed (TBS) and encrypted (TBE) inner structures of Sigma2/Sigma3:
/// TBS `{1: NOC, 2: ICAC?, 3: sender ephemeral key, 4: receiver ephemeral key}`;
/// TBE `{1: NOC, 2: ICAC?, 3: signature (64), 4: resumptionId (16, Sigma2 only)}`. The ICAC is omitted,
/// not empty, when the chain has none.
struct SigmaSignedData: Sendable {
    var noc: [UInt8]
    var icac: [UInt8]?

    func toBeSigned(senderEphemeralKey: [UInt8], receiverEphemeralKey: [UInt8]) -> [UInt8] {
        var w = TLVWriter(capacity: 800)
        w.putStructure { w in
            w.put(noc, tag: .context(1))
            if let icac { w.put(icac, tag: .context(2)) }
            w.put(senderEphemeralKey, tag: .context(3))
            w.put(receiverEphemeralKey, tag: .context(4))
        }
        return w.bytes
    }

    func toBeEncrypted(signature: [UInt8], resumptionID: [UInt8]?) -> [UInt8] {
        var w = TLVWriter(capacity: 800)
        w.putStructure { w in
            w.put(noc, tag: .context(1))
            if let icac { w.put(icac, tag: .context(2)) }
            w.put(signature, tag: .context(3))
            if let resumptionID { w.put(resumptionID, tag: .context(4)) }
        }
        return w.bytes
    }

    /// Decodes a decrypted TBEData: the chain, the 64-byte signature and (Sigma2) the 16-byte resumption ID.
    static func decodeEncrypted(_ bytes: [UInt8], name: String, expectsResumptionID: Bool)
        throws(SecureChannelError) -> (data: SigmaSignedData, signature: [UInt8], resumptionID: [UInt8]?)
    {
        let e = try SecureChannelError.decoding(name, bytes)
        let noc = try SigmaField.bytes(e, 1, "\(name).NOC", length: nil)
        let icac = try SigmaField.optionalBytes(e, 2, "\(name).ICAC", length: nil)
        let signature = try SigmaField.bytes(e, 3, "\(name).signature", length: 64)
        let resumptionID = expectsResumptionID ? try SigmaField.bytes(e, 4, "\(name).resumptionId", length: 16) : nil
        return (SigmaSignedData(noc: noc, icac: icac), signature, resumptionID)
    }
}

/// Typed member reads with the message and field named in errors.
enum SigmaField {
    static func bytes(_ e: TLVElement, _ tag: UInt8, _ name: String, length: Int?) throws(SecureChannelError) -> [UInt8]
    {
        guard let value = try optionalBytes(e, tag, name, length: length) else {
            throw .invalidMessage("\(name) (tag \(tag)) missing")
        }
        return value
    }

    static func optionalBytes(_ e: TLVElement, _ tag: UInt8, _ name: String, length: Int?)
        throws(SecureChannelError) -> [UInt8]?
    {
        guard let member = e[context: tag] else { return nil }
        guard let value = member.bytes else { throw .invalidMessage("\(name) is not an octet string") }
        if let length, value.count != length {
            throw .invalidMessage("\(name) has \(value.count) bytes, expected \(length)")
        }
        return value
    }

    static func uint16(_ e: TLVElement, _ tag: UInt8, _ name: String) throws(SecureChannelError) -> UInt16 {
        guard let value = e[context: tag]?.uint, value <= UInt16.max else {
            throw .invalidMessage("\(name) missing or not a 16-bit unsigned integer")
        }
        return UInt16(value)
    }

    static func sessionParameters(_ e: TLVElement, _ tag: UInt8, _ name: String) throws(SecureChannelError)
        -> SessionParameters?
    {
        guard let member = e[context: tag] else { return nil }
        do {
            return try SessionParameters(element: member)
        } catch {
            throw .invalidMessage("\(name) session parameters: \(error)")
        }
    }
}
