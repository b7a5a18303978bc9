import MatterCore
import MatterTestSupport
import Testing

@testable import MatterSecureChannel

/// case.md §2-§3 vectors.
@Suite("CASE fabric derivations")
struct CASEKeyScheduleTests {
    static let rootPublicKey = Hex.decode(
        "044a9f42b1ca4840d37292bbc7f6a7e11e22200c976fc900dbc98a7a383a641cb8254a2e56d4e295a847943b4e3897c4a773e930277b4d9fbede8a052686bfacfa"
    )!
    static let fabricID = FabricID(0x2906_C908_D115_D362)

    @Test func compressedFabricID() throws {
        #expect(
            try CASEKeySchedule.compressedFabricID(rootPublicKey: Self.rootPublicKey, fabricID: Self.fabricID)
                == Hex.decode("87e1b004e235a130"))
    }

    @Test func operationalIPK() throws {
        #expect(
            try CASEKeySchedule.operationalIPK(
                epochKey: Hex.decode("235bf7e62823d358dca4ba50b1535f4b")!,
                compressedFabricID: Hex.decode("87e1b004e235a130")!)
                == Hex.decode("a6f5306baf6d050af23ba4bd6b9dd960"))
        #expect(
            try CASEKeySchedule.operationalIPK(
                epochKey: Array(0xA0...0xAF),
                compressedFabricID: Hex.decode("2906c908d115d362")!)
                == Hex.decode("1f19ed3cef8a211baf306faeeee7aac6"))
    }

    @Test func destinationID() throws {
        let id = try CASEKeySchedule.destinationID(
            operationalIPK: Hex.decode("9bc61cd9c62a2df6d64dfcaa9dc472d4")!,
            initiatorRandom: Hex.decode("7e171231568dfa17206b3accf8faec2f4d21b580113196f47c7c4deb810a73dc")!,
            rootPublicKey: Self.rootPublicKey, fabricID: Self.fabricID, nodeID: NodeID(0xCD55_44AA_7B13_EF14))
        #expect(id == Hex.decode("dc35dd5fc9134cc5544538c9c3fc4297c1ec3370c839136a80e10796451d4c53"))
    }
}
