import FuzzSupport
import MatterCrypto
import MatterTransport

@testable import MatterSecureChannel

@main
enum FuzzSecureChannel {
    static func main() { runLibFuzzer(fuzzSecureChannel) }
}

/// Fuzz target for the PASE and CASE message codecs (what a device decodes from an unauthenticated peer):
/// PBKDFParamRequest/Response, Pake1–3, Sigma1–3 and Sigma2_Resume, the decrypted TBEData of Sigma2/3, and the
/// handshake StatusReport. Each decoder runs on each input; what one accepts goes through the round trip, and the
/// ephemeral public keys it carries through P-256 point validation.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecureChannel(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzInput(data, size)

    if let request = try? PBKDFParamRequest(decoding: bytes) {
        checkRoundTrip(
            request, name: "PBKDFParamRequest", encode: { $0.encoded() },
            decode: PBKDFParamRequest.init(decoding:))
    }
    if let response = try? PBKDFParamResponse(decoding: bytes) {
        checkRoundTrip(
            response, name: "PBKDFParamResponse", encode: { $0.encoded() },
            decode: PBKDFParamResponse.init(decoding:))
    }
    if let pake1 = try? PakeMessages.decode("Pake1", bytes, members: [(1, 65)]) {
        fuzzCheck(pake1.count == 1 && pake1[0].count == 65, "Pake1 decoded to \(pake1.map(\.count))")
        _ = try? P256PublicKey(x963Representation: pake1[0])
        fuzzCheck(
            (try? PakeMessages.decode("Pake1", PakeMessages.pake1(pA: pake1[0]), members: [(1, 65)])) == pake1,
            "Pake1 round trip failed")
    }
    if let pake2 = try? PakeMessages.decode("Pake2", bytes, members: [(1, 65), (2, 32)]) {
        let again = PakeMessages.pake2(pB: pake2[0], cB: pake2[1])
        fuzzCheck(
            (try? PakeMessages.decode("Pake2", again, members: [(1, 65), (2, 32)])) == pake2,
            "Pake2 round trip failed")
    }
    if let pake3 = try? PakeMessages.decode("Pake3", bytes, members: [(1, 32)]) {
        fuzzCheck(
            (try? PakeMessages.decode("Pake3", PakeMessages.pake3(cA: pake3[0]), members: [(1, 32)])) == pake3,
            "Pake3 round trip failed")
    }
    if let sigma1 = try? Sigma1(decoding: bytes) {
        _ = try? P256PublicKey(x963Representation: sigma1.initiatorEphemeralPublicKey)
        checkRoundTrip(sigma1, name: "Sigma1", encode: { $0.encoded() }, decode: Sigma1.init(decoding:))
    }
    if let sigma2 = try? Sigma2(decoding: bytes) {
        _ = try? P256PublicKey(x963Representation: sigma2.responderEphemeralPublicKey)
        checkRoundTrip(sigma2, name: "Sigma2", encode: { $0.encoded() }, decode: Sigma2.init(decoding:))
    }
    if let sigma3 = try? Sigma3(decoding: bytes) {
        checkRoundTrip(sigma3, name: "Sigma3", encode: { $0.encoded() }, decode: Sigma3.init(decoding:))
    }
    if let resume = try? Sigma2Resume(decoding: bytes) {
        checkRoundTrip(resume, name: "Sigma2_Resume", encode: { $0.encoded() }, decode: Sigma2Resume.init(decoding:))
    }
    for expectsResumptionID in [true, false] {
        let name = expectsResumptionID ? "TBEData2" : "TBEData3"
        guard
            let tbe = try? SigmaSignedData.decodeEncrypted(
                bytes, name: name, expectsResumptionID: expectsResumptionID)
        else { continue }
        let again = tbe.data.toBeEncrypted(signature: tbe.signature, resumptionID: tbe.resumptionID)
        let second = try? SigmaSignedData.decodeEncrypted(again, name: name, expectsResumptionID: expectsResumptionID)
        fuzzCheck(
            second?.data.noc == tbe.data.noc && second?.data.icac == tbe.data.icac
                && second?.signature == tbe.signature && second?.resumptionID == tbe.resumptionID,
            "\(name) round trip failed")
    }
    if let report = try? StatusReport(decodingHandshake: bytes) {
        _ = SecureChannelError(report: report).description
    }
    return 0
}
