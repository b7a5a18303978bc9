import MatterClusters
import MatterCore
import MatterTLV
import MatterTestSupport
import Testing

@Suite("CLI values to TLV and back")
struct ClusterValueCodecTests {
    let registry = ClusterRegistry.standard

    @Test func scalars() throws {
        let onOff = try registry.requireCluster(named: "onoff")
        #expect(try onOff.requireAttribute(named: "on-time").encode(cliValue: "0x10") == .unsigned(16))
        #expect(try onOff.requireAttribute(named: "start-up-on-off").encode(cliValue: "null") == .null)
        #expect(throws: ClusterSchemaError.notNullable("on-time")) {
            try onOff.requireAttribute(named: "on-time").encode(cliValue: "null")
        }
        #expect(throws: ClusterSchemaError.outOfRange("65536", type: "uint16", for: "on-time")) {
            try onOff.requireAttribute(named: "on-time").encode(cliValue: "65536")
        }
        #expect(throws: ClusterSchemaError.self) { try onOff.requireAttribute(named: "on-time").encode(cliValue: "-1") }
        #expect(throws: ClusterSchemaError.self) {
            try onOff.requireAttribute(named: "on-time").encode(cliValue: "ten")
        }
        let basic = try registry.requireCluster(named: "basicinformation")
        #expect(try basic.requireAttribute(named: "node-label").encode(cliValue: "Desk lamp") == .utf8("Desk lamp"))
        #expect(throws: ClusterSchemaError.self) {
            try basic.requireAttribute(named: "location").encode(cliValue: "FRA")
        }
        #expect(try basic.requireAttribute(named: "local-config-disabled").encode(cliValue: "true") == .bool(true))
        let diagnostics = try registry.requireCluster(named: "networkcommissioning")
        #expect(
            try diagnostics.requireAttribute(named: "last-connect-error-value").encode(cliValue: "-5") == .signed(-5))
    }

    @Test func commandFieldsPositionalAndNamed() throws {
        let moveToLevel = try registry.requireCluster(named: "levelcontrol").requireCommand(named: "move-to-level")
        // As the transcript's MoveToLevel(77, transition 0, 0, 0).
        let fields = try moveToLevel.encodeFields(positional: ["77", "0", "0", "0"])
        var writer = TLVWriter()
        writer.put(fields, tag: .context(1))
        #expect(writer.bytes == hex("3501 24004d 240100 240200 240300 18"))
        #expect(try moveToLevel.encodeFields(positional: ["10", "null", "0", "0"]).members?[1].value == .null)
        #expect(throws: ClusterSchemaError.missingField(name: "transitionTime", in: "move-to-level")) {
            try moveToLevel.encodeFields(positional: ["10"])
        }
        #expect(throws: ClusterSchemaError.self) {
            try moveToLevel.encodeFields(positional: ["1", "2", "3", "4", "5"])
        }
        // Optional fields: positional after the mandatory ones, or by name.
        let csr = try registry.requireCluster(named: "operationalcredentials").requireCommand(named: "csrrequest")
        let nonce = String(repeating: "ab", count: 32)
        #expect(try csr.encodeFields(positional: ["hex:" + nonce]).members?.count == 1)
        #expect(
            try csr.encodeFields(positional: ["hex:" + nonce], named: ["is-for-update-noc": "true"]).members?.last
                == TLVElement(tag: .context(1), .bool(true)))
        #expect(throws: ClusterSchemaError.unknownField(name: "bogus", in: "csrrequest")) {
            try csr.encodeFields(positional: [], named: ["bogus": "1"])
        }
        let toggle = try registry.requireCluster(named: "onoff").requireCommand(named: "toggle")
        #expect(try toggle.encodeFields(positional: []) == .structure([]))
    }

    @Test func listsAndStructsFromJSON() throws {
        let acl = try registry.requireCluster(named: "accesscontrol").requireAttribute(named: "acl")
        let value = try acl.encode(
            cliValue: #"[{"privilege": 5, "authMode": 2, "subjects": [112233], "targets": null}]"#)
        #expect(
            value
                == .array([
                    TLVElement(
                        .structure([
                            TLVElement(tag: .context(1), .unsigned(5)),
                            TLVElement(tag: .context(2), .unsigned(2)),
                            TLVElement(tag: .context(3), .array([TLVElement(.unsigned(112233))])),
                            TLVElement(tag: .context(4), .null),
                        ]))
                ]))
        #expect(acl.format(value) == #"[{"privilege":5,"authMode":2,"subjects":[112233],"targets":null}]"#)
        // Field names in any case style, or by tag number.
        let byTag = try acl.encode(
            cliValue:
                #"[{"1": 3, "AuthMode": 2, "subjects": null, "targets": [{"cluster": 6, "endpoint": 1, "deviceType": null}]}]"#
        )
        #expect(byTag.members?.first?[context: 4]?.members?.first?[context: 0]?.uint == 6)
        #expect(throws: ClusterSchemaError.self) { try acl.encode(cliValue: #"[{"privilege": 5}]"#) }
        #expect(throws: ClusterSchemaError.self) { try acl.encode(cliValue: #"[{"privilege": 5,"#) }
        #expect(throws: ClusterSchemaError.self) { try acl.encode(cliValue: #"{"privilege": 5}"#) }
        let uint64 = try acl.encode(
            cliValue: #"[{"privilege":5,"authMode":2,"subjects":[18446744073709551615],"targets":null}]"#)
        #expect(uint64.members?.first?[context: 3]?.members?.first?.uint == UInt64.max)
    }

    @Test func formattingForDisplay() throws {
        let descriptor = try registry.requireCluster(named: "descriptor")
        let list = TLVValue.array([
            TLVElement(
                .structure([
                    TLVElement(tag: .context(0), .unsigned(0x0101)), TLVElement(tag: .context(1), .unsigned(3)),
                ]))
        ])
        #expect(
            try descriptor.requireAttribute(named: "device-type-list").format(list)
                == #"[{"deviceType":257,"revision":3}]"#)
        let noc = try registry.requireCluster(named: "operationalcredentials").requireAttribute(named: "nocs")
        let entry = TLVValue.array([
            TLVElement(
                .structure([
                    TLVElement(tag: .context(1), .bytes([0xAB, 0x01])), TLVElement(tag: .context(2), .null),
                    TLVElement(tag: .context(0xFE), .unsigned(1)), TLVElement(tag: .context(9), .utf8("q\"")),
                ]))
        ])
        #expect(noc.format(entry) == #"[{"noc":"hex:ab01","icac":null,"fabricIndex":1,"9":"q\""}]"#)
        let schema = try registry.requireCluster(named: "generalcommissioning").response(
            .GeneralCommissioning.armFailSafeResponse)
        #expect(
            schema?.format(
                .structure([
                    TLVElement(tag: .context(0), .unsigned(0)),
                    TLVElement(tag: .context(1), .utf8("")),
                ])) == #"{"errorCode":0,"debugText":""}"#)
    }
}
