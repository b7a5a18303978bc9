import MatterCore

/// Real handshake openers to mutate and replay: what the connectedhomeip SDK's controller sent, byte for
/// byte, in the commissioning transcript of the spec digest (unsecured session, so nothing is encrypted).
enum CapturedMessages {
    /// PBKDFParamRequest (transcript message 1).
    static let pbkdfParamRequest = hex(
        "0400000070000c05f2048f8542848b760520489c000015300120c55ab5142b89efefe69366372d4135ce081897956268b7b078"
            + "a82e7c29359f5d250268c1240300280435052501f40125022c012503a00f24041324050c2606000204012407011818")
    /// Pake1 (transcript message 3).
    static let pake1 = hex(
        "0400000071000c05f2048f8542848b760722489c0000996bc10b15300141043e450a8b3a85c7962ef00429ff3b8ff16dd31eeb"
            + "29436856dbd0f103f86dac45fe0c84ea43aa22a0b74d277973cea1a4516f4284d0bdcc8a871eb3dd2d7191f218")
    /// Pake3 (transcript message 5).
    static let pake3 = hex(
        "0400000072000c05f2048f8542848b760724489c00009a6bc10b15300120a36bf669743b3b20a778fc5f4368affd13da26ee3e"
            + "f554a740d1afe8ff65b8eb18")
    /// Sigma1 (transcript message 38).
    static let sigma1 = hex(
        "0400000074000c054ce03e92f1077dd60530539c00001530012072e6ba75b6d47ab8110452bcb09ae5ae2367ff9e3ac4d0ebb8"
            + "07fc59982f249e250269c1300320e910cc3bbad884c4868747de8141024b0f14c298177b3655a90f2a50247ba23530044104"
            + "5b4f0dfe4fde773e8ca775789088cd909a7da4e07e47c9075d4d52ec17d3507d95724fa3f08c830f80178d2a7bba83c2b296"
            + "98feeccedf30cb76a92b689404d835052501f40125022c012503a00f24041324050c2606000204012407011818")

    static let all = [pbkdfParamRequest, pake1, pake3, sigma1]

    private static func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }
}
