import MatterCore
import MatterCrypto

/// What a device does with a Sigma1, decided from the message, the device's fabrics and its
/// resumption records alone: no node, no exchange, no I/O (the responder carries the decision out).
/// Spec 4.14.2.3: a valid resumption is answered with Sigma2_Resume; otherwise the destination
/// identifier must name one of our fabrics under one of its IPK epoch keys.
enum CASEAdmission {
    /// Sigma1 on an encrypted session: closed without an answer.
    case droppedOnEncryptedSession
    /// Sigma1 does not decode: StatusReport InvalidParameter.
    case invalid(SecureChannelError)
    /// The resumption ID names a record of ours, its MIC checks out and its fabric is still there:
    /// answer Sigma2_Resume.
    case resume(Sigma1, record: CASEResumptionStore.Record, fabric: CASECredentials)
    /// The destination identifier names `fabric` under `ipk`: the full handshake (Sigma2).
    case full(Sigma1, fabric: CASECredentials, ipk: [UInt8])
    /// No fabric of ours matches: StatusReport NoSharedTrustRoots.
    case noSharedTrustRoots(Sigma1)

    /// The decoded Sigma1, when there is one.
    var sigma1: Sigma1? {
        switch self {
        case .droppedOnEncryptedSession, .invalid: nil
        case .resume(let sigma1, _, _), .full(let sigma1, _, _), .noSharedTrustRoots(let sigma1): sigma1
        }
    }

    /// Decides for a Sigma1 `payload`.
    /// - Parameters:
    ///   - unsecured: it came on an unsecured session.
    ///   - fabrics: the device's fabrics now.
    ///   - resumptionRecord: the record a resumption ID names, if any.
    static func decide(
        payload: [UInt8], unsecured: Bool, fabrics: [CASECredentials],
        resumptionRecord: (_ resumptionID: [UInt8]) -> CASEResumptionStore.Record?
    ) -> CASEAdmission {
        guard unsecured else { return .droppedOnEncryptedSession }
        let sigma1: Sigma1
        do {
            sigma1 = try Sigma1(decoding: payload)
        } catch {
            return .invalid(error)
        }
        if let fields = sigma1.resumption, let record = resumptionRecord(fields.id),
            let expected = try? CASECrypto.resumeMIC(
                shared: record.sharedSecret, initiatorRandom: sigma1.initiatorRandom,
                resumptionID: fields.id, info: CASEKeySchedule.sigma1ResumeInfo,
                nonce: CASEKeySchedule.resume1Nonce),
            SecureMemory.constantTimeEquals(expected, fields.mic),
            let fabric = fabrics.first(where: { $0.fabricIndex == record.fabricIndex })
        {
            return .resume(sigma1, record: record, fabric: fabric)
        }
        // Any resumption problem falls back to the full handshake.
        for fabric in fabrics {
            for epochKey in fabric.ipkEpochKeys {
                guard let ipk = try? fabric.operationalIPK(epochKey: epochKey),
                    let candidate = try? CASEKeySchedule.destinationID(
                        operationalIPK: ipk, initiatorRandom: sigma1.initiatorRandom,
                        rootPublicKey: fabric.rootPublicKey, fabricID: fabric.fabricID, nodeID: fabric.nodeID)
                else { continue }
                if SecureMemory.constantTimeEquals(candidate, sigma1.destinationID) {
                    return .full(sigma1, fabric: fabric, ipk: ipk)
                }
            }
        }
        return .noSharedTrustRoots(sigma1)
    }
}
