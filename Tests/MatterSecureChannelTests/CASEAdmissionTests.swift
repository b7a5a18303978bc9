import MatterCore
import MatterCredentials
import MatterCrypto
import Testing

@testable import MatterSecureChannel

/// What a device does with a Sigma1, decided without a node: the message against the device's fabrics
/// and resumption records (spec 4.14.2.3).
@Suite("CASE admission")
struct CASEAdmissionTests {
    /// Two fabrics of a device, the second with two IPK epoch keys (a key rotation in progress).
    static func fabrics() throws -> [CASECredentials] {
        let first = try FabricAuthority.create(fabricID: FabricID(0x0000_0000_0000_0A01), rcacID: 1)
        let second = try FabricAuthority.create(fabricID: FabricID(0x0000_0000_0000_0B02), rcacID: 2)
        var rotated = try TestFabric.credentials(second, nodeID: NodeID(0x22), fabricIndex: 2)
        rotated.ipkEpochKeys = [Array("temporary ipk 02".utf8), TestFabric.epochKey]
        return [try TestFabric.credentials(first, nodeID: NodeID(0x11), fabricIndex: 1), rotated]
    }

    /// A Sigma1 whose destination identifier names `fabric` under `epochKey`.
    static func sigma1(
        to fabric: CASECredentials, epochKey: [UInt8] = TestFabric.epochKey,
        resumption: (id: [UInt8], mic: [UInt8])? = nil, random: [UInt8] = Array(repeating: 7, count: 32)
    ) throws -> Sigma1 {
        let ipk = try CASEKeySchedule.operationalIPK(
            epochKey: epochKey,
            compressedFabricID: CASEKeySchedule.compressedFabricID(
                rootPublicKey: fabric.rootPublicKey, fabricID: fabric.fabricID))
        let destination = try CASEKeySchedule.destinationID(
            operationalIPK: ipk, initiatorRandom: random, rootPublicKey: fabric.rootPublicKey,
            fabricID: fabric.fabricID, nodeID: fabric.nodeID)
        return Sigma1(
            initiatorRandom: random, initiatorSessionID: 0x1234, destinationID: destination,
            initiatorEphemeralPublicKey: try P256PrivateKey().publicKey.x963Representation,
            sessionParameters: nil, resumption: resumption)
    }

    static func decide(
        _ payload: [UInt8], unsecured: Bool = true, fabrics: [CASECredentials],
        records: [CASEResumptionStore.Record] = []
    ) -> CASEAdmission {
        CASEAdmission.decide(
            payload: payload, unsecured: unsecured, fabrics: fabrics,
            resumptionRecord: { id in records.first { $0.resumptionID == id } })
    }

    @Test("Sigma1 on an encrypted session is dropped before it is decoded")
    func encryptedSession() throws {
        let fabrics = try Self.fabrics()
        let admission = Self.decide(try Self.sigma1(to: fabrics[0]).encoded(), unsecured: false, fabrics: fabrics)
        guard case .droppedOnEncryptedSession = admission else {
            Issue.record("got \(admission)")
            return
        }
    }

    @Test("An undecodable Sigma1 is invalid", arguments: [[], [0x15, 0x18], [0x15, 0x30, 0x01, 0x01, 0x00, 0x18]])
    func undecodable(payload: [UInt8]) throws {
        let admission = Self.decide(payload, fabrics: try Self.fabrics())
        guard case .invalid = admission else {
            Issue.record("got \(admission)")
            return
        }
        #expect(admission.sigma1 == nil)
    }

    @Test("The destination identifier picks the fabric and the epoch key it was made with")
    func destinationMatch() throws {
        let fabrics = try Self.fabrics()
        for (index, fabric) in fabrics.enumerated() {
            for epochKey in fabric.ipkEpochKeys {
                let sigma1 = try Self.sigma1(to: fabric, epochKey: epochKey)
                let admission = Self.decide(sigma1.encoded(), fabrics: fabrics)
                guard case .full(let decoded, let matched, let ipk) = admission else {
                    Issue.record("fabric \(index): got \(admission)")
                    continue
                }
                #expect(decoded == sigma1)
                #expect(matched.fabricIndex == fabric.fabricIndex)
                #expect(ipk == (try fabric.operationalIPK(epochKey: epochKey)))
            }
        }
    }

    @Test("A destination that names none of our fabrics finds no shared trust root")
    func noSharedTrustRoot() throws {
        let fabrics = try Self.fabrics()
        let stranger = try TestFabric.credentials(
            try FabricAuthority.create(fabricID: FabricID(0xDEAD), rcacID: 9), nodeID: NodeID(0x11))
        let admission = Self.decide(try Self.sigma1(to: stranger).encoded(), fabrics: fabrics)
        guard case .noSharedTrustRoots = admission else {
            Issue.record("got \(admission)")
            return
        }
        // The same Sigma1 to a device that has no fabric yet.
        guard case .noSharedTrustRoots = Self.decide(try Self.sigma1(to: fabrics[0]).encoded(), fabrics: []) else {
            Issue.record("a device without fabrics matched")
            return
        }
    }

    /// A record of an earlier session with the initiator on `fabricIndex`, and the Sigma1 resumption
    /// fields that prove knowledge of its secret.
    static func resumption(fabricIndex: UInt8, random: [UInt8]) throws -> (
        CASEResumptionStore.Record, (id: [UInt8], mic: [UInt8])
    ) {
        let record = CASEResumptionStore.Record(
            resumptionID: Array(repeating: 0x5A, count: 16), sharedSecret: Array(repeating: 0x33, count: 32),
            fabricIndex: fabricIndex, peerNodeID: NodeID(0x77), peerCATs: [])
        let mic = try CASECrypto.resumeMIC(
            shared: record.sharedSecret, initiatorRandom: random, resumptionID: record.resumptionID,
            info: CASEKeySchedule.sigma1ResumeInfo, nonce: CASEKeySchedule.resume1Nonce)
        return (record, (record.resumptionID, mic))
    }

    @Test("A resumption whose MIC checks out resumes on the record's fabric")
    func resumes() throws {
        let fabrics = try Self.fabrics()
        let random = Array(repeating: UInt8(9), count: 32)
        let (record, fields) = try Self.resumption(fabricIndex: 2, random: random)
        let sigma1 = try Self.sigma1(to: fabrics[1], resumption: fields, random: random)
        let admission = Self.decide(sigma1.encoded(), fabrics: fabrics, records: [record])
        guard case .resume(_, let resumed, let fabric) = admission else {
            Issue.record("got \(admission)")
            return
        }
        #expect(resumed == record)
        #expect(fabric.fabricIndex == 2)
    }

    @Test(
        "A resumption that does not check out falls back to the full handshake",
        arguments: ["wrong MIC", "unknown ID", "fabric removed"])
    func resumptionFallsBack(problem: String) throws {
        let fabrics = try Self.fabrics()
        let random = Array(repeating: UInt8(9), count: 32)
        var (record, fields) = try Self.resumption(fabricIndex: 2, random: random)
        var available = fabrics
        switch problem {
        case "wrong MIC": fields.mic[0] ^= 1
        case "unknown ID": record.resumptionID[0] ^= 1
        default: available.removeAll { $0.fabricIndex == 2 }
        }
        // The destination names fabric 1, which every variant still has.
        let sigma1 = try Self.sigma1(to: fabrics[0], resumption: fields, random: random)
        let admission = Self.decide(sigma1.encoded(), fabrics: available, records: [record])
        guard case .full(_, let fabric, _) = admission else {
            Issue.record("\(problem): got \(admission)")
            return
        }
        #expect(fabric.fabricIndex == 1)
    }
}
