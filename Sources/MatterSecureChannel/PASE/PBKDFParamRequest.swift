import MatterTLV

/// PBKDFParamRequest (Secure Channel opcode 0x20), commissioner → device:
///
/// | tag | field | type |
/// |---|---|---|
/// | 1 | initiatorRandom | octets, 32 |
/// | 2 | initiatorSessionId | uint16 |
/// | 3 | passcodeId | uint16 (0) |
/// | 4 | hasPBKDFParameters | bool |
/// | 5 | initiatorSessionParams | struct, optional |
struct PBKDFParamRequest: Equatable, Sendable {
    var initiatorRandom: [UInt8]
    var initiatorSessionID: UInt16
    var passcodeID: UInt16 = 0
    var hasPBKDFParameters: Bool
    var sessionParameters: SessionParameters?

    func encoded() -> [UInt8] {
        var w = TLVWriter(capacity: 80)
        w.putStructure { w in
            w.put(initiatorRandom, tag: .context(1))
            w.put(initiatorSessionID, tag: .context(2))
            w.put(passcodeID, tag: .context(3))
            w.put(hasPBKDFParameters, tag: .context(4))
            sessionParameters?.encode(to: &w, tag: .context(5))
        }
        return w.bytes
    }

    init(
        initiatorRandom: [UInt8], initiatorSessionID: UInt16, hasPBKDFParameters: Bool,
        sessionParameters: SessionParameters?
    ) {
        self.initiatorRandom = initiatorRandom
        self.initiatorSessionID = initiatorSessionID
        self.hasPBKDFParameters = hasPBKDFParameters
        self.sessionParameters = sessionParameters
    }

    init(decoding bytes: [UInt8]) throws(SecureChannelError) {
        let element = try SecureChannelError.decoding("PBKDFParamRequest", bytes)
        do {
            initiatorRandom = try element.decodeMember(.context(1))
            initiatorSessionID = try element.decodeMember(.context(2))
            passcodeID = try element.decodeMember(.context(3))
            hasPBKDFParameters = try element.decodeMember(.context(4))
            sessionParameters = try element[context: 5].map { e throws(TLVError) in try SessionParameters(element: e) }
        } catch {
            throw .invalidMessage("PBKDFParamRequest: \(error)")
        }
        guard initiatorRandom.count == 32 else {
            throw .invalidMessage("PBKDFParamRequest: initiatorRandom has \(initiatorRandom.count) bytes, expected 32")
        }
        guard initiatorSessionID != 0 else { throw .invalidMessage("PBKDFParamRequest: initiatorSessionId is 0") }
    }
}
