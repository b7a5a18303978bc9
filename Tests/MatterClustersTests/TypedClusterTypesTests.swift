import MatterClusters
import MatterCore
import MatterTLV
import MatterTestSupport
import Testing

/// The generated typed layer (`Clusters.<Cluster>`): TLV coding of enums, bitmaps, structs, lists,
/// nullable and optional fields, and decoding errors that name the field.
@Suite("Generated cluster types")
struct TypedClusterTypesTests {
    func encode<T: TLVEncodable>(_ value: T) -> [UInt8] {
        var writer = TLVWriter()
        value.encode(to: &writer, tag: .anonymous)
        return writer.bytes
    }

    @Test("a struct encodes its fields with context tags, in tag order, in the smallest integer widths")
    func structBytes() throws {
        let entry = Clusters.Descriptor.DeviceTypeStruct(deviceType: 0x0101, revision: 3)
        // struct { 0: u16 0x0101, 1: u8 3 }
        #expect(encode(entry) == hex("15 25 00 01 01 24 01 03 18"))
        #expect(try Clusters.Descriptor.DeviceTypeStruct(tlv: TLVElement.decode(encode(entry))) == entry)
    }

    @Test("a command's fields: enum and plain integer; an unknown enum value is refused naming the field")
    func commandEnumField() throws {
        let command = Clusters.OnOff.Commands.OffWithEffect(effectIdentifier: .dyingLight, effectVariant: 0)
        #expect(encode(command) == hex("15 24 00 01 24 01 00 18"))
        let bad = try TLVElement.decode(hex("15 24 00 07 24 01 00 18"))
        #expect(
            throws: TLVError.invalidValue(
                tag: .context(0), reason: "OffWithEffect.EffectIdentifier: EffectIdentifierEnum has no value 7")
        ) { try Clusters.OnOff.Commands.OffWithEffect(tlv: bad) }
    }

    @Test("a missing mandatory field and a field of the wrong type are errors naming the field")
    func missingAndMistyped() throws {
        let missing = try TLVElement.decode(hex("15 24 00 01 18"))
        #expect(throws: TLVError.invalidValue(tag: .context(1), reason: "OffWithEffect.EffectVariant is missing")) {
            try Clusters.OnOff.Commands.OffWithEffect(tlv: missing)
        }
        let mistyped = try TLVElement.decode(hex("15 24 00 01 2C 01 01 78 18"))  // EffectVariant as a string
        let error = #expect(throws: TLVError.self) { try Clusters.OnOff.Commands.OffWithEffect(tlv: mistyped) }
        #expect(error?.description.contains("OffWithEffect.EffectVariant") == true)
        let notAStruct = try TLVElement.decode(hex("24 00 01"))
        #expect(throws: TLVError.self) { try Clusters.OnOff.Commands.OffWithEffect(tlv: notAStruct) }
    }

    @Test("unknown fields of a later revision are skipped")
    func unknownFieldSkipped() throws {
        let later = try TLVElement.decode(hex("15 24 00 01 24 01 00 24 09 05 18"))
        let command = try Clusters.OnOff.Commands.OffWithEffect(tlv: later)
        #expect(command.effectIdentifier == .dyingLight)
    }

    @Test("optional fields are absent when nil; nullable values write null")
    func optionalAndNullable() throws {
        // MoveToLevel: Level, TransitionTime (nullable), OptionsMask, OptionsOverride (bitmaps).
        let move = Clusters.LevelControl.Commands.MoveToLevel(
            level: 200, transitionTime: .null, optionsMask: [.executeIfOff], optionsOverride: [])
        #expect(encode(move) == hex("15 24 00 C8 34 01 24 02 01 24 03 00 18"))
        let decoded = try Clusters.LevelControl.Commands.MoveToLevel(tlv: TLVElement.decode(encode(move)))
        #expect(decoded == move)
        #expect(decoded.optionsMask.contains(.executeIfOff))
        // StartUpOnOff is a nullable enum attribute.
        typealias StartUp = Clusters.OnOff.Attributes.StartUpOnOff
        #expect(try StartUp.decode(TLVElement.decode(hex("14"))) == .null)
        #expect(try StartUp.decode(TLVElement.decode(hex("04 02"))) == .value(.toggle))
    }

    @Test("bitmaps keep bits the model does not name")
    func bitmapUnknownBits() throws {
        let options = try Clusters.LevelControl.OptionsBitmap(tlv: TLVElement.decode(hex("04 81")))
        #expect(options.contains(.executeIfOff))
        #expect(options.rawValue == 0x81)
        #expect(Clusters.OnOff.Feature.lighting.rawValue == 1)
        #expect(Clusters.OnOff.Feature.offOnly.rawValue == 4)
    }

    @Test("list attributes and fabric-scoped structs: entries errors name the entry")
    func listsAndFabricScoped() throws {
        typealias ACL = Clusters.AccessControl.Attributes.ACL
        let entry = Clusters.AccessControl.AccessControlEntryStruct(
            privilege: .administer, authMode: .case, subjects: .value([0x1122]), targets: .null, fabricIndex: 1)
        var writer = TLVWriter()
        ACL.encode([entry], to: &writer, tag: .anonymous)
        let element = try TLVElement.decode(writer.bytes)
        #expect(try ACL.decode(element) == [entry])
        #expect(element.members?.first?[context: 0xFE]?.uint == 1)
        // The second entry carries Privilege 9, which AccessControlEntryPrivilegeEnum does not have.
        var bad = TLVWriter()
        bad.putArray { w in
            entry.encode(to: &w, tag: .anonymous)
            w.putStructure { s in
                s.put(UInt8(9), tag: .context(1))
                s.put(UInt8(2), tag: .context(2))
                s.putNull(tag: .context(3))
                s.putNull(tag: .context(4))
            }
        }
        let error = #expect(throws: TLVError.self) { try ACL.decode(TLVElement.decode(bad.bytes)) }
        #expect(error?.description.contains("entry 1: AccessControlEntryStruct.Privilege") == true)
    }

    @Test("the lookup tables give the type of an ID, requests and responses apart")
    func lookup() {
        #expect(Clusters.requestType(cluster: .onOff, CommandID.OnOff.toggle) == Clusters.OnOff.Commands.Toggle.self)
        #expect(Clusters.requestType(cluster: .groups, CommandID(0)) == Clusters.Groups.Commands.AddGroup.self)
        #expect(
            Clusters.responseType(cluster: .groups, CommandID(0)) == Clusters.Groups.Commands.AddGroupResponse.self)
        #expect(Clusters.attributeType(cluster: .onOff, AttributeID(0xFFFD)) == nil)
        #expect(
            Clusters.eventType(cluster: .basicInformation, EventID(0)) == Clusters.BasicInformation.Events.StartUp.self)
        #expect(Clusters.requestType(cluster: ClusterID(0xFFF1_FC00), CommandID(0)) == nil)
    }
}
