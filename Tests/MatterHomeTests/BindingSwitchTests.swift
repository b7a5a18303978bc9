import Foundation
import MatterClusters
import MatterCore
import MatterDevice
import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterHome

/// A client-side device: an on/off light switch commands the light its Binding cluster names, as itself
/// (CASE with its own operational identity), once the light's AccessControl grants it; set up through the
/// generated traits of AccessControl and Binding.
@Suite("Light switches through Binding")
struct BindingSwitchTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    func eventually(_ condition: () async -> Bool) async -> Bool {
        await MatterTestSupport.eventually(within: .seconds(30), every: .milliseconds(50)) { await condition() }
    }

    /// The control plane's answer as JSON.
    func control(_ device: VirtualDevice, _ request: String) async throws -> [String: Any] {
        let answer = await device.control(request)
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any], "\(answer)")
    }

    @Test("a switch bound to a light toggles it; refused until the light's ACL grants the switch; no binding, no send")
    func switchTogglesLight() async throws {
        let light = try await bed.device("on-off-light", name: "light", discriminator: 671)
        let toggle = try await bed.device("on-off-light-switch", name: "switch", discriminator: 672)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let ids = try await commission([light, toggle], in: structure)
        let devices = try await home.devices().byID()
        let lightDevice = try #require(devices.first { $0.id == ids[0] })
        let switchDevice = try #require(devices.first { $0.id == ids[1] })
        let lightNode = try #require(UInt64(lightDevice.id))
        let switchNode = try #require(UInt64(switchDevice.id))
        let onOff = try #require(await lightDevice.types.get(OnOffLightDeviceType.self)?.matterTraits.onOffTrait)
        #expect(onOff.attributes.onOff == false)

        // The switch's endpoint: the device type, its client clusters, a Binding server.
        let switchType = try #require(await switchDevice.types.get(OnOffLightSwitchDeviceType.self))
        let descriptor = try #require(switchType.matterTraits.descriptorTrait)
        #expect(descriptor.attributes.clientList?.contains(UInt32(ClusterID.onOff.rawValue)) == true)
        let binding = try #require(switchType.matterTraits.bindingTrait)

        let press = #"{"op":"send","endpoint":1,"cluster":"OnOff","command":"Toggle"}"#
        let unbound = try await control(toggle, press)
        #expect(unbound["ok"] as? Bool == false, "\(unbound)")

        try await binding.update { $0.setBinding([.init(node: lightNode, endpoint: 1, cluster: 6)]) }
        #expect(binding.attributes.binding?.first?.node == lightNode)
        // The light does not know the switch yet: CASE succeeds (same fabric), the invoke is refused.
        let refused = try await control(toggle, press)
        let refusedSent = try #require(refused["sent"] as? [[String: Any]], "\(refused)")
        #expect(refusedSent.first?["delivered"] as? Bool == false, "\(refused)")
        #expect((refusedSent.first?["outcome"] as? String)?.contains("UNSUPPORTED_ACCESS") == true, "\(refused)")

        let lightRoot = try #require(await lightDevice.types.get(RootNodeDeviceType.self))
        let accessControl = try #require(lightRoot.matterTraits.accessControlTrait)
        let entries = try #require(accessControl.attributes.acl)
        let grant = Clusters.AccessControl.AccessControlEntryStruct(
            privilege: .operate, authMode: .case, subjects: .value([switchNode]), targets: .null)
        try await accessControl.update { $0.setAcl(entries + [grant]) }
        #expect(accessControl.attributes.acl?.count == entries.count + 1)

        let sent = try await control(toggle, press)
        let deliveries = try #require(sent["sent"] as? [[String: Any]], "\(sent)")
        #expect(deliveries.count == 1 && deliveries.first?["delivered"] as? Bool == true, "\(sent)")
        #expect(await eventually { onOff.attributes.onOff == true })
        // Again, on the session the switch kept.
        _ = try await control(toggle, press)
        #expect(await eventually { onOff.attributes.onOff == false })
        await home.close()
        await light.stop()
        await toggle.stop()
    }

    @Test(
        "a doorbell's press rings the chime its Binding names; the chime plays only installed sounds and selects only them"
    )
    func doorbellRingsChime() async throws {
        let chime = try await bed.device("chime", name: "chime", discriminator: 673)
        let doorbell = try await bed.device("doorbell", name: "doorbell", discriminator: 674)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let ids = try await commission([chime, doorbell], in: structure)
        let devices = try await home.devices().byID()
        let chimeDevice = try #require(devices.first { $0.id == ids[0] })
        let doorbellDevice = try #require(devices.first { $0.id == ids[1] })
        let chimeNode = try #require(UInt64(chimeDevice.id))
        let doorbellNode = try #require(UInt64(doorbellDevice.id))

        let chimeType = try #require(await chimeDevice.types.get(ChimeDeviceType.self))
        let sounds = try #require(chimeType.matterTraits.chimeTrait)
        #expect(sounds.attributes.installedChimeSounds?.map(\.name) == ["Ding Dong", "Westminster"])
        await #expect(throws: HomeError.self) { try await sounds.update { $0.setSelectedChime(7) } }
        try await sounds.update { $0.setSelectedChime(1) }
        #expect(sounds.attributes.selectedChime == 1)

        // Unbound, a press is only the Switch's events.
        let alone = try await control(doorbell, #"{"op":"press"}"#)
        #expect(alone["sent"] == nil && (alone["eventNumbers"] as? [Any])?.isEmpty == false, "\(alone)")

        let doorbellType = try #require(await doorbellDevice.types.get(DoorbellDeviceType.self))
        let binding = try #require(doorbellType.matterTraits.bindingTrait)
        try await binding.update { $0.setBinding([.init(node: chimeNode, endpoint: 1, cluster: 0x0556)]) }
        let chimeRoot = try #require(await chimeDevice.types.get(RootNodeDeviceType.self))
        let accessControl = try #require(chimeRoot.matterTraits.accessControlTrait)
        let entries = try #require(accessControl.attributes.acl)
        let grant = Clusters.AccessControl.AccessControlEntryStruct(
            privilege: .operate, authMode: .case, subjects: .value([doorbellNode]), targets: .null)
        try await accessControl.update { $0.setAcl(entries + [grant]) }

        let rung = try await control(doorbell, #"{"op":"press"}"#)
        let sent = try #require(rung["sent"] as? [[String: Any]], "\(rung)")
        #expect(sent.count == 1 && sent.first?["delivered"] as? Bool == true, "\(rung)")
        #expect(sent.first?["node"] as? UInt64 == chimeNode, "\(rung)")
        await home.close()
        await chime.stop()
        await doorbell.stop()
    }
}
