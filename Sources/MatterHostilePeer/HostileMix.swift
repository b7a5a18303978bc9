import MatterCore
import MatterTLV
import MatterTransport

/// One datagram to send: what it is, from which of the peer's sockets, and what the device should do.
struct HostileDatagram: Sendable {
    let kind: HostileKind
    let bytes: [UInt8]
    /// 0: the main socket; 1...: the sockets half-open handshakes come from.
    let socket: Int
    let expected: ExpectedOutcome
}

/// Generates the hostile mix from a seed: units of one or more datagrams (a duplicate burst, a replay
/// burst, a half-open handshake) drawn so that each kind's share of datagrams follows its weight.
struct HostileMix {
    private var random: SeededRandom
    private let weights: [(kind: HostileKind, weight: Double)]
    private let halfOpenSockets: Int
    private var nextHalfOpenSocket = 0
    private var pending: [HostileDatagram] = []
    /// Our own PBKDFParamRequest, replayed verbatim all run long.
    private let ownPBKDFParamRequest: [UInt8]

    init(seed: UInt64, weights: [HostileKind: Int], halfOpenSockets: Int) {
        var random = SeededRandom(seed: seed)
        // A unit of a kind averages this many datagrams: draw units in inverse proportion.
        func unitSize(_ kind: HostileKind) -> Double {
            switch kind {
            case .duplicate: 9
            case .replay: 4.5
            case .halfOpen: 1.5
            default: 1
            }
        }
        self.weights = HostileKind.allCases.compactMap { kind in
            guard let weight = weights[kind], weight > 0 else { return nil }
            return (kind, Double(weight) / unitSize(kind))
        }
        self.halfOpenSockets = max(1, halfOpenSockets)
        ownPBKDFParamRequest = HostileMix.pbkdfParamRequestMessage(
            source: HostileMix.nodeID(&random), counter: UInt32(truncatingIfNeeded: random.next()),
            exchangeID: UInt16(truncatingIfNeeded: random.next()), random: &random)
        self.random = random
    }

    /// The next datagram.
    mutating func next() -> HostileDatagram {
        if pending.isEmpty { pending = makeUnit(pickKind()).reversed() }
        return pending.removeLast()
    }

    private mutating func pickKind() -> HostileKind {
        let total = weights.reduce(0) { $0 + $1.weight }
        var point = Double(random.next() >> 11) / Double(1 << 53) * total
        for entry in weights {
            if point < entry.weight { return entry.kind }
            point -= entry.weight
        }
        return weights.last?.kind ?? .random
    }

    private mutating func makeUnit(_ kind: HostileKind) -> [HostileDatagram] {
        func single(_ bytes: [UInt8], socket: Int = 0) -> [HostileDatagram] {
            [HostileDatagram(kind: kind, bytes: bytes, socket: socket, expected: OutcomePredictor.predict(bytes))]
        }
        switch kind {
        case .random:
            let roll = random.next() % 100
            let length =
                roll < 70
                ? 1 + Int(random.next() % 64)
                : roll < 95 ? 65 + Int(random.next() % 236) : 301 + Int(random.next() % 980)
            return single(MessageMutator.randomBytes(count: length, random: &random))
        case .secured:
            let sessionID = UInt16(truncatingIfNeeded: random.next() % 0xFFFF) + 1
            let roll = random.next() % 10
            let header = MessageHeader(
                sessionID: sessionID, messageCounter: UInt32(truncatingIfNeeded: random.next()),
                source: roll < 4 ? Self.nodeID(&random) : nil,
                destination: roll == 9 ? .node(Self.nodeID(&random)) : .none)
            let body = MessageMutator.randomBytes(count: 16 + Int(random.next() % 185), random: &random)
            return single(header.encoded + body)
        case .unsecured:
            return single(unsecuredGarbage())
        case .mutated:
            let seeds = CapturedMessages.all + [ownPBKDFParamRequest, sigma1Message(), imRequestOnUnsecured()]
            let seed = seeds[Int(random.next() % UInt64(seeds.count))]
            return single(readdressed(MessageMutator.mutate(seed, random: &random)))
        case .duplicate:
            // An initiator's reliable message for a protocol nobody handles: the first opens an unsecured
            // session (unhandled), the copies hit its counter window (duplicate).
            let header = MessageHeader(
                sessionID: 0, messageCounter: UInt32(truncatingIfNeeded: random.next()),
                source: Self.nodeID(&random))
            let payload = PayloadHeader(
                isInitiator: true, needsAck: true,
                opcode: UInt8(truncatingIfNeeded: random.next()),
                exchangeID: UInt16(truncatingIfNeeded: random.next()),
                protocolID: ProtocolID(vendorID: 0xFFF1, protocolNumber: 0x0042))
            let bytes =
                header.encoded + Self.encoded(payload)
                + MessageMutator.randomBytes(count: Int(random.next() % 48), random: &random)
            let copies = 2 + Int(random.next() % 15)
            let first = HostileDatagram(kind: kind, bytes: bytes, socket: 0, expected: OutcomePredictor.predict(bytes))
            return [first]
                + Array(
                    repeating: HostileDatagram(
                        kind: kind, bytes: bytes, socket: 0,
                        expected: .droppedDuplicate), count: copies - 1)
        case .replay:
            let message = random.next() % 2 == 0 ? CapturedMessages.pbkdfParamRequest : ownPBKDFParamRequest
            let copies = 1 + Int(random.next() % 8)
            return Array(
                repeating: HostileDatagram(
                    kind: kind, bytes: message, socket: 0,
                    expected: OutcomePredictor.predict(message)), count: copies)
        case .halfOpen:
            nextHalfOpenSocket = nextHalfOpenSocket % halfOpenSockets + 1
            let socket = nextHalfOpenSocket
            let source = Self.nodeID(&random)
            let counter = UInt32(truncatingIfNeeded: random.next())
            let exchangeID = UInt16(truncatingIfNeeded: random.next())
            let request = Self.pbkdfParamRequestMessage(
                source: source, counter: counter, exchangeID: exchangeID,
                random: &random)
            var unit = single(request, socket: socket)
            if random.next() % 2 == 0 {
                // Pake1 with a point that is not on the curve, on the same exchange.
                var w = TLVWriter(capacity: 80)
                w.putStructure { w in
                    w.putBytes([0x04] + MessageMutator.randomBytes(count: 64, random: &random), tag: .context(1))
                }
                let pake1 =
                    MessageHeader(sessionID: 0, messageCounter: counter &+ 1, source: source).encoded
                    + Self.encoded(
                        PayloadHeader(
                            isInitiator: true, needsAck: true, opcode: SecureChannelOpcode.pake1,
                            exchangeID: exchangeID, protocolID: .secureChannel))
                    + w.bytes
                unit += single(pake1, socket: socket)
            }
            return unit
        case .sigma1:
            return single(sigma1Message())
        }
    }

    /// A valid unsecured header and a payload that is garbage, or a payload header with garbage behind.
    private mutating func unsecuredGarbage() -> [UInt8] {
        let roll = random.next() % 100
        let header =
            roll < 10
            ? MessageHeader(
                sessionID: 0, messageCounter: UInt32(truncatingIfNeeded: random.next()),
                destination: .node(Self.nodeID(&random)))
            : MessageHeader(
                sessionID: 0, messageCounter: UInt32(truncatingIfNeeded: random.next()),
                source: Self.nodeID(&random))
        let garbage = MessageMutator.randomBytes(count: Int(random.next() % 100), random: &random)
        if roll < 35 { return header.encoded + garbage }
        let protocolID: ProtocolID
        let opcode: UInt8
        switch random.next() % 10 {
        case 0..<4:
            let opcodes: [UInt8] = [
                SecureChannelOpcode.messageCounterSyncRequest, SecureChannelOpcode.standaloneAck,
                SecureChannelOpcode.pbkdfParamRequest, SecureChannelOpcode.pbkdfParamResponse,
                SecureChannelOpcode.pake1, SecureChannelOpcode.pake2, SecureChannelOpcode.pake3,
                SecureChannelOpcode.sigma1, SecureChannelOpcode.sigma2, SecureChannelOpcode.sigma3,
                SecureChannelOpcode.sigma2Resume, SecureChannelOpcode.statusReport, SecureChannelOpcode.icdCheckIn,
                UInt8(truncatingIfNeeded: random.next()),
            ]
            protocolID = .secureChannel
            opcode = opcodes[Int(random.next() % UInt64(opcodes.count))]
        case 4..<7:
            protocolID = .interactionModel
            opcode = UInt8(truncatingIfNeeded: random.next() % 12)
        default:
            protocolID = ProtocolID(
                vendorID: random.next() % 2 == 0 ? 0 : UInt16(truncatingIfNeeded: random.next()),
                protocolNumber: UInt16(truncatingIfNeeded: random.next()))
            opcode = UInt8(truncatingIfNeeded: random.next())
        }
        let flags = random.next()
        let acknowledged: UInt32? = flags & 16 != 0 ? UInt32(truncatingIfNeeded: random.next()) : nil
        let payload = PayloadHeader(
            isInitiator: flags & 1 != 0 || flags & 6 == 0, needsAck: flags & 8 != 0,
            acknowledgedCounter: acknowledged,
            opcode: opcode, exchangeID: UInt16(truncatingIfNeeded: random.next()),
            protocolID: protocolID)
        return header.encoded + Self.encoded(payload) + garbage
    }

    /// A well-formed Sigma1 for a random destination, sometimes with made-up resumption fields.
    private mutating func sigma1Message() -> [UInt8] {
        let header = MessageHeader(
            sessionID: 0, messageCounter: UInt32(truncatingIfNeeded: random.next()),
            source: Self.nodeID(&random))
        let payloadHeader = PayloadHeader(
            isInitiator: true, needsAck: true, opcode: SecureChannelOpcode.sigma1,
            exchangeID: UInt16(truncatingIfNeeded: random.next()),
            protocolID: .secureChannel)
        let resume = random.next() % 5 == 0
        var w = TLVWriter(capacity: 240)
        w.putStructure { w in
            w.putBytes(MessageMutator.randomBytes(count: 32, random: &random), tag: .context(1))
            w.put(UInt16(truncatingIfNeeded: random.next() % 0xFFFF) + 1, tag: .context(2))
            w.putBytes(MessageMutator.randomBytes(count: 32, random: &random), tag: .context(3))
            w.putBytes([0x04] + MessageMutator.randomBytes(count: 64, random: &random), tag: .context(4))
            Self.putSessionParameters(&w)
            if resume {
                w.putBytes(MessageMutator.randomBytes(count: 16, random: &random), tag: .context(6))
                w.putBytes(MessageMutator.randomBytes(count: 16, random: &random), tag: .context(7))
            }
        }
        return header.encoded + Self.encoded(payloadHeader) + w.bytes
    }

    /// An interaction-model InvokeRequest-shaped message on the unsecured session.
    private mutating func imRequestOnUnsecured() -> [UInt8] {
        let header = MessageHeader(
            sessionID: 0, messageCounter: UInt32(truncatingIfNeeded: random.next()),
            source: Self.nodeID(&random))
        let payloadHeader = PayloadHeader(
            isInitiator: true, needsAck: true, opcode: 0x08,
            exchangeID: UInt16(truncatingIfNeeded: random.next()),
            protocolID: .interactionModel)
        var w = TLVWriter(capacity: 40)
        w.putStructure { w in
            w.put(false, tag: .context(0))
            w.put(false, tag: .context(1))
            w.putArray(tag: .context(2)) { _ in }
            w.putUnsigned(12, tag: .context(0xFF))
        }
        return header.encoded + Self.encoded(payloadHeader) + w.bytes
    }

    /// Gives a mutated message that still decodes as an unsecured initiator's a fresh source node ID,
    /// so that the device has no state for it and the prediction holds.
    private mutating func readdressed(_ bytes: [UInt8]) -> [UInt8] {
        var reader = ByteReader(bytes)
        guard let header = try? MessageHeader(from: &reader), header.isUnsecured, header.source != nil,
            bytes.count >= 16
        else { return bytes }
        var result = bytes
        withUnsafeBytes(of: Self.nodeID(&random).rawValue.littleEndian) { result.replaceSubrange(8..<16, with: $0) }
        return result
    }

    static func pbkdfParamRequestMessage(
        source: NodeID, counter: UInt32, exchangeID: UInt16,
        random: inout SeededRandom
    ) -> [UInt8] {
        let header = MessageHeader(sessionID: 0, messageCounter: counter, source: source)
        let payloadHeader = PayloadHeader(
            isInitiator: true, needsAck: true,
            opcode: SecureChannelOpcode.pbkdfParamRequest, exchangeID: exchangeID,
            protocolID: .secureChannel)
        var w = TLVWriter(capacity: 80)
        w.putStructure { w in
            w.putBytes(MessageMutator.randomBytes(count: 32, random: &random), tag: .context(1))
            w.put(UInt16(truncatingIfNeeded: random.next() % 0xFFFF) + 1, tag: .context(2))
            w.put(UInt16(0), tag: .context(3))
            w.put(false, tag: .context(4))
            putSessionParameters(&w)
        }
        return header.encoded + encoded(payloadHeader) + w.bytes
    }

    /// Session parameters as a commissioner sends them: idle 500 ms, active 300 ms.
    static func putSessionParameters(_ w: inout TLVWriter) {
        w.putStructure(tag: .context(5)) { w in
            w.put(UInt32(500), tag: .context(1))
            w.put(UInt32(300), tag: .context(2))
        }
    }

    static func encoded(_ header: PayloadHeader) -> [UInt8] {
        var writer = ByteWriter(capacity: 16)
        header.encode(into: &writer)
        return writer.bytes
    }

    /// A random operational-range node ID (never 0).
    static func nodeID(_ random: inout SeededRandom) -> NodeID { NodeID(random.next() & 0xFFFF_FFEF_FFFF_FFFF | 1) }
}
