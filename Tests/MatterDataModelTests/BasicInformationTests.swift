import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

@Suite("Basic Information")
struct BasicInformationTests {
    typealias A = AttributeID.BasicInformation

    @Test func valuesComeFromTheConfiguration() throws {
        var information = DevicePreset.dimmableLight.defaultInformation
        information.vendorName = "Acme"
        information.serialNumber = "SN-1"
        information.uniqueID = "unique-1"
        information.softwareVersion = 7
        let model = try DeviceDataModel(
            endpoints: DevicePreset.dimmableLight.makeEndpoints(information: information),
            configuration: DeviceDataModel.Configuration(clock: ManualClock()))
        let read = { (attribute: AttributeID) -> TLVValue? in
            try? model.readAttribute(
                ConcreteAttributePath(endpoint: .root, cluster: .basicInformation, attribute: attribute),
                context: .caseSubject())
        }
        #expect(read(A.dataModelRevision) == .unsigned(19))
        #expect(read(A.vendorName) == .utf8("Acme"))
        #expect(read(A.vendorID) == .unsigned(0xFFF1))
        #expect(read(A.productName) == .utf8("Dimmable Light"))
        #expect(read(A.productID) == .unsigned(0x8002))
        #expect(read(A.nodeLabel) == .utf8(""))
        #expect(read(A.location) == .utf8("XX"))
        #expect(read(A.hardwareVersion) == .unsigned(1))
        #expect(read(A.softwareVersion) == .unsigned(7))
        #expect(read(A.serialNumber) == .utf8("SN-1"))
        #expect(read(A.uniqueID) == .utf8("unique-1"))
        #expect(read(A.specificationVersion) == .unsigned(0x0105_0000))
        #expect(read(A.maxPathsPerInvoke) == .unsigned(1))
        #expect(
            read(A.capabilityMinima)
                == .structure([TLVElement(tag: .context(0), .unsigned(3)), TLVElement(tag: .context(1), .unsigned(3))]))
        let ids = model.attributes(endpoint: .root, cluster: .basicInformation).map(\.id)
        #expect(ids.contains(A.serialNumber) && !ids.contains(A.partNumber))
        #expect(read(A.partNumber) == nil)
        // StartUp event with the software version.
        let startUp = try #require(model.eventRecords(from: 0).first)
        #expect(startUp.path.event == .BasicInformation.startUp)
        #expect(startUp.priority == 2)
        #expect(startUp.data == .structure([TLVElement(tag: .context(0), .unsigned(7))]))
    }

    @Test("ConfigurationVersion (rev 5) starts at 1, counts composition changes after start, is persisted")
    func configurationVersionCountsCompositionChanges() throws {
        let bench = try Bench(.dimmableLight)
        #expect(bench.value(0, .basicInformation, A.configurationVersion) == .unsigned(1))
        #expect(bench.value(0, .basicInformation, .clusterRevision) == .unsigned(5))
        try bench.model.add(DevicePreset.onOffPlug.makeApplicationEndpoints(from: EndpointID(2))[0])
        #expect(bench.value(0, .basicInformation, A.configurationVersion) == .unsigned(2))
        _ = bench.model.endpoint(EndpointID(2))?.remove(.identify)
        #expect(bench.value(0, .basicInformation, A.configurationVersion) == .unsigned(3))
        #expect(bench.observer.count(.basicInformation, A.configurationVersion) == 2)
        let restarted = try bench.reboot()
        #expect(restarted.value(0, .basicInformation, A.configurationVersion) == .unsigned(3))
    }

    /// NodeLabel's limit is 32 bytes of UTF-8, not 32 characters; bidi overrides and zero-width
    /// characters are refused like controls (issue 35, cause 9).
    @Test func nodeLabelLimitIsBytesAndFormatCharactersAreRefused() throws {
        let bench = try Bench(.onOffLight)
        #expect(bench.write(0, .basicInformation, A.nodeLabel, .utf8(String(repeating: "é", count: 16))) == .success)
        #expect(
            bench.write(0, .basicInformation, A.nodeLabel, .utf8(String(repeating: "€", count: 11))) == .constraintError
        )
        for label in ["evil\u{202E}gpj.exe", "zero\u{200B}width", "join\u{200D}er", "\u{FEFF}bom", "iso\u{2066}late"] {
            #expect(bench.write(0, .basicInformation, A.nodeLabel, .utf8(label)) == .constraintError, "\(label)")
        }
        #expect(bench.value(0, .basicInformation, A.nodeLabel) == .utf8(String(repeating: "é", count: 16)))
    }

    @Test func nodeLabelAndLocationArePersisted() throws {
        let bench = try Bench(.onOffLight)
        #expect(bench.write(0, .basicInformation, A.nodeLabel, .utf8("Desk lamp")) == .success)
        #expect(
            bench.write(0, .basicInformation, A.nodeLabel, .utf8(String(repeating: "x", count: 33))) == .constraintError
        )
        #expect(bench.write(0, .basicInformation, A.nodeLabel, .unsigned(1)) == .invalidDataType)
        #expect(bench.write(0, .basicInformation, A.location, .utf8("USA")) == .constraintError)
        #expect(bench.write(0, .basicInformation, A.location, .utf8("FR")) == .success)
        #expect(bench.write(0, .basicInformation, A.localConfigDisabled, .bool(true)) == .success)
        #expect(bench.write(0, .basicInformation, A.vendorName, .utf8("x")) == .unsupportedWrite)
        let uniqueID = bench.value(0, .basicInformation, A.uniqueID)
        guard case .utf8(let generated)? = uniqueID else {
            Issue.record("UniqueID is \(String(describing: uniqueID))")
            return
        }
        #expect(generated.utf8.count == 32)
        let device = try bench.reboot(.onOffLight)
        #expect(device.value(0, .basicInformation, A.nodeLabel) == .utf8("Desk lamp"))
        #expect(device.value(0, .basicInformation, A.location) == .utf8("FR"))
        #expect(device.value(0, .basicInformation, A.localConfigDisabled) == .bool(true))
        // A generated UniqueID is stable across restarts.
        #expect(device.value(0, .basicInformation, A.uniqueID) == uniqueID)
    }

    @Test func eventsContinueNumberingAcrossRestarts() throws {
        let bench = try Bench(.onOffLight)
        let first = try #require(bench.model.eventRecords(from: 0).last?.number)
        let info = try #require(bench.model.cluster(BasicInformationServer.self, on: .root))
        info.recordLeave(fabricIndex: 3)
        #expect(bench.observer.eventNotifications == 1)
        let leave = try #require(bench.model.eventRecords(from: first + 1).first)
        #expect(leave.path.event == .BasicInformation.leave)
        #expect(leave.data == .structure([TLVElement(tag: .context(0), .unsigned(3))]))
        let device = try bench.reboot(.onOffLight)
        // ShutDown was recorded on the old model; the new StartUp is numbered above everything before.
        #expect(bench.model.eventRecords(from: 0).last?.path.event == .BasicInformation.shutDown)
        let startUp = try #require(device.model.eventRecords(from: 0).first)
        #expect(startUp.number > leave.number + 1)
        #expect(startUp.path.event == .BasicInformation.startUp)
    }
}
