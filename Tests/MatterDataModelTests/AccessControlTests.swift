import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

@Suite("Access control evaluation (spec 6.6.6)")
struct AccessControlTests {
    let onOffOnEP1 = AccessRequest(
        endpoint: EndpointID(1), cluster: .onOff, privilege: .operate, deviceTypes: [DeviceType.dimmableLight.id])

    func caseSubject(fabric: UInt8 = 1, node: UInt64 = 0x1111, cats: [UInt32] = []) -> SubjectDescriptor {
        SubjectDescriptor(authMode: .case, fabricIndex: fabric, subject: node, cats: cats)
    }

    func request(_ privilege: Privilege, endpoint: UInt16 = 1, cluster: ClusterID = .onOff) -> AccessRequest {
        AccessRequest(
            endpoint: EndpointID(endpoint), cluster: cluster, privilege: privilege,
            deviceTypes: endpoint == 1 ? [DeviceType.dimmableLight.id] : [DeviceType.rootNode.id])
    }

    @Test func privilegesIncludeTheLowerOnesButProxyViewOnlyFromAdminister() {
        // Rows: granted; columns: requested View, ProxyView, Operate, Manage, Administer.
        let table: [(Privilege, [Bool])] = [
            (.view, [true, false, false, false, false]),
            (.proxyView, [true, true, false, false, false]),
            (.operate, [true, false, true, false, false]),
            (.manage, [true, false, true, true, false]),
            (.administer, [true, true, true, true, true]),
        ]
        for (granted, row) in table {
            let got = Privilege.allCases.map { AccessControlEntry.privilege(granted, includes: $0) }
            #expect(got == row, "\(granted)")
            let acl = AccessControlList(
                entries: [AccessControlEntry(fabricIndex: 1, privilege: granted, authMode: .case)])
            #expect(Privilege.allCases.map { acl.allows(caseSubject(), request($0)) } == row, "\(granted)")
        }
    }

    @Test func subjectsAreNodeIDsOrAnyone() {
        let acl = AccessControlList(entries: [
            AccessControlEntry(fabricIndex: 1, privilege: .operate, authMode: .case, subjects: [0x1111, 0x2222])
        ])
        #expect(acl.allows(caseSubject(node: 0x1111), onOffOnEP1))
        #expect(acl.allows(caseSubject(node: 0x2222), onOffOnEP1))
        #expect(!acl.allows(caseSubject(node: 0x3333), onOffOnEP1))
        acl.entries.append(AccessControlEntry(fabricIndex: 1, privilege: .view, authMode: .case))
        #expect(acl.allows(caseSubject(node: 0x3333), request(.view)))
        #expect(!acl.allows(caseSubject(node: 0x3333), request(.operate)))
    }

    @Test func catSubjectsMatchIdentifierWithAtLeastTheVersion() {
        let cat = AccessControlEntry.catSubject(identifier: 0xABCD, version: 2)
        #expect(cat == 0xFFFF_FFFD_ABCD_0002)
        #expect(AccessControlEntry.catComponents(cat)?.identifier == 0xABCD)
        #expect(AccessControlEntry.catComponents(0x1234) == nil)
        let acl = AccessControlList(entries: [
            AccessControlEntry(fabricIndex: 1, privilege: .manage, authMode: .case, subjects: [cat])
        ])
        #expect(acl.allows(caseSubject(cats: [0xABCD_0002]), onOffOnEP1))
        #expect(acl.allows(caseSubject(cats: [0x0001_0001, 0xABCD_0007]), onOffOnEP1))
        #expect(!acl.allows(caseSubject(cats: [0xABCD_0001]), onOffOnEP1))
        #expect(!acl.allows(caseSubject(cats: [0xABCE_0002]), onOffOnEP1))
        #expect(!acl.allows(caseSubject(cats: []), onOffOnEP1))
        // A node ID that happens to look like a CAT subject is not one for a group subject.
        #expect(
            !AccessControlEntry.subject(
                cat, matches: SubjectDescriptor(authMode: .group, fabricIndex: 1, subject: 5, cats: [0xABCD_0002])))
    }

    @Test func targetsNarrowTheEntry() {
        let byCluster = AccessControlEntry(
            fabricIndex: 1, privilege: .operate, authMode: .case, targets: [.init(cluster: .onOff)])
        #expect(byCluster.grants(caseSubject(), request(.operate, cluster: .onOff)))
        #expect(!byCluster.grants(caseSubject(), request(.operate, cluster: .levelControl)))
        let byEndpoint = AccessControlEntry(
            fabricIndex: 1, privilege: .operate, authMode: .case, targets: [.init(endpoint: EndpointID(1))])
        #expect(byEndpoint.grants(caseSubject(), request(.operate, endpoint: 1, cluster: .levelControl)))
        #expect(!byEndpoint.grants(caseSubject(), request(.operate, endpoint: 0, cluster: .levelControl)))
        let both = AccessControlEntry(
            fabricIndex: 1, privilege: .operate, authMode: .case,
            targets: [.init(cluster: .onOff, endpoint: EndpointID(2))])
        #expect(!both.grants(caseSubject(), request(.operate, endpoint: 1, cluster: .onOff)))
        let byDeviceType = AccessControlEntry(
            fabricIndex: 1, privilege: .operate, authMode: .case,
            targets: [.init(deviceType: DeviceType.dimmableLight.id)])
        #expect(byDeviceType.grants(caseSubject(), request(.operate, endpoint: 1)))
        #expect(!byDeviceType.grants(caseSubject(), request(.operate, endpoint: 0)))
        // Any matching target is enough.
        let either = AccessControlEntry(
            fabricIndex: 1, privilege: .operate, authMode: .case,
            targets: [.init(cluster: .identify), .init(endpoint: EndpointID(0))])
        #expect(either.grants(caseSubject(), request(.operate, endpoint: 1, cluster: .identify)))
        #expect(either.grants(caseSubject(), request(.operate, endpoint: 0, cluster: .onOff)))
        #expect(!either.grants(caseSubject(), request(.operate, endpoint: 1, cluster: .onOff)))
    }

    @Test func paseHasImplicitAdministerWhileCommissioning() {
        let acl = AccessControlList()
        let pase = SubjectDescriptor(authMode: .pase, fabricIndex: 0, subject: 0)
        #expect(acl.allows(pase, request(.administer, endpoint: 0, cluster: .accessControl)))
        #expect(acl.allows(pase, request(.proxyView)))
        acl.grantsPASEAdminister = false
        #expect(!acl.allows(pase, request(.view)))
        // A PASE entry never matches either (and cannot be written).
        acl.entries = [AccessControlEntry(fabricIndex: 1, privilege: .administer, authMode: .pase)]
        #expect(!acl.allows(pase, request(.view)))
        #expect(throws: StatusIB(.constraintError)) { try acl.entries[0].validate() }
    }

    @Test func otherFabricsAndAuthModesAreDenied() {
        let acl = AccessControlList(entries: [
            AccessControlEntry(fabricIndex: 1, privilege: .administer, authMode: .case, subjects: [0x1111]),
            AccessControlEntry(fabricIndex: 2, privilege: .operate, authMode: .group, subjects: [7]),
        ])
        #expect(!acl.allows(caseSubject(fabric: 2, node: 0x1111), request(.view)))
        #expect(!acl.allows(caseSubject(fabric: 0, node: 0x1111), request(.view)))
        let group7 = SubjectDescriptor(authMode: .group, fabricIndex: 2, subject: 7)
        #expect(acl.allows(group7, request(.operate)))
        #expect(!acl.allows(SubjectDescriptor(authMode: .group, fabricIndex: 2, subject: 8), request(.operate)))
        #expect(!acl.allows(SubjectDescriptor(authMode: .group, fabricIndex: 1, subject: 0x1111), request(.view)))
        // Fabric bookkeeping.
        acl.replaceEntries(fabric: 2, with: [AccessControlEntry(fabricIndex: 9, privilege: .view, authMode: .case)])
        #expect(acl.entries(fabric: 2).map(\.fabricIndex) == [2])
        acl.removeFabric(1)
        #expect(acl.entries.count == 1)
    }

    @Test func validationRules() {
        func status(_ entry: AccessControlEntry) -> IMStatus {
            do throws(StatusIB) {
                try entry.validate()
                return .success
            } catch {
                return error.status
            }
        }
        let ok = AccessControlEntry(
            fabricIndex: 1, privilege: .administer, authMode: .case,
            subjects: [0x1111, AccessControlEntry.catSubject(identifier: 1, version: 1)],
            targets: [.init(cluster: .onOff, endpoint: EndpointID(1)), .init(deviceType: DeviceTypeID(0x100))])
        #expect(status(ok) == .success)
        #expect(
            status(AccessControlEntry(fabricIndex: 1, privilege: .administer, authMode: .group)) == .constraintError)
        #expect(
            status(AccessControlEntry(fabricIndex: 1, privilege: .operate, authMode: .group, subjects: [7])) == .success
        )
        #expect(
            status(AccessControlEntry(fabricIndex: 1, privilege: .operate, authMode: .group, subjects: [0x1_0000]))
                == .constraintError)
        #expect(
            status(AccessControlEntry(fabricIndex: 1, privilege: .view, authMode: .case, subjects: [0]))
                == .constraintError)
        #expect(
            status(
                AccessControlEntry(
                    fabricIndex: 1, privilege: .view, authMode: .case, subjects: [0xFFFF_FFFF_0000_0001]))
                == .constraintError)
        #expect(
            status(
                AccessControlEntry(
                    fabricIndex: 1, privilege: .view, authMode: .case,
                    subjects: [AccessControlEntry.catSubject(identifier: 1, version: 0)])) == .constraintError)
        #expect(
            status(AccessControlEntry(fabricIndex: 1, privilege: .view, authMode: .case, targets: [.init()]))
                == .constraintError)
        #expect(
            status(
                AccessControlEntry(
                    fabricIndex: 1, privilege: .view, authMode: .case,
                    targets: [.init(endpoint: EndpointID(1), deviceType: DeviceTypeID(0x100))])) == .constraintError)
    }

    @Test func entriesRoundTripThroughTLV() throws {
        let entry = AccessControlEntry(
            fabricIndex: 3, privilege: .manage, authMode: .case, subjects: [0x1111],
            targets: [.init(cluster: .onOff, endpoint: EndpointID(1))])
        let value = entry.tlvValue()
        #expect(try AccessControlEntry(tlv: TLVElement(value)) == entry)
        let bytes = TLVElement(value).encoded()
        #expect(
            bytes == hex("15 24 01 04 24 02 02 36 03 05 11 11 18 36 04 15 24 00 06 24 01 01 34 02 18 18 24 fe 03 18"))
        // Null subject and target lists mean "any".
        let open = AccessControlEntry(fabricIndex: 1, privilege: .view, authMode: .case)
        #expect(TLVElement(open.tlvValue()).encoded() == hex("15 24 01 01 24 02 02 34 03 34 04 24 fe 01 18"))
        #expect(try AccessControlEntry(tlv: TLVElement(open.tlvValue())) == open)
        // Another fabric's entry in an unfiltered read: only its FabricIndex.
        #expect(entry.tlvValue(includeSensitive: false) == .structure([TLVElement(tag: .context(0xFE), .unsigned(3))]))
        // Malformed entries.
        #expect(throws: StatusIB(.invalidDataType)) { try AccessControlEntry(tlv: TLVElement(.unsigned(1))) }
        #expect(throws: StatusIB(.invalidDataType)) {
            try AccessControlEntry(tlv: TLVElement(.structure([TLVElement(tag: .context(1), .unsigned(1))])))
        }
        #expect(throws: StatusIB(.constraintError)) {
            try AccessControlEntry(
                tlv: TLVElement(
                    .structure([TLVElement(tag: .context(1), .unsigned(9)), TLVElement(tag: .context(2), .unsigned(2))])
                ))
        }
    }

    @Test func theDataModelChecksWithTheEndpointsDeviceTypes() throws {
        let bench = try Bench(.dimmableLight)
        bench.model.accessPolicy = AccessControlList(entries: [
            AccessControlEntry(
                fabricIndex: 1, privilege: .operate, authMode: .case,
                targets: [.init(deviceType: DeviceType.dimmableLight.id)])
        ])
        let subject = caseSubject()
        #expect(bench.model.checkAccess(subject, endpoint: EndpointID(1), cluster: .onOff, privilege: .operate))
        #expect(!bench.model.checkAccess(subject, endpoint: .root, cluster: .basicInformation, privilege: .view))
        #expect(!bench.model.checkAccess(subject, endpoint: EndpointID(9), cluster: .onOff, privilege: .view))
    }
}
