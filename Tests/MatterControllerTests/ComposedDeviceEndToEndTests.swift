import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterInteraction
import MatterStorage
import MatterTLV
import MatterTestSupport
import Testing

/// Device types made of other device types, and cameras, commissioned and driven by our controller.
@Suite("Composed devices and cameras end to end")
struct ComposedDeviceEndToEndTests {
    /// The members of a typed command's fields.
    func members<T: TLVEncodable>(_ command: T) throws -> [TLVElement] {
        var writer = TLVWriter()
        command.encode(to: &writer, tag: .anonymous)
        guard case .structure(let members) = try TLVElement.decode(writer.bytes).value else { return [] }
        return members
    }

    func numbers(_ value: TLVValue?) -> [UInt64] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { if case .unsigned(let n) = $0.value { n } else { nil } }
    }

    @Test(
        "a refrigerator: our controller records its cabinet as a part on endpoint 2 and sets the cabinet's temperature"
    )
    func refrigerator() async throws {
        let bed = try TestBed()
        let device = try await bed.device("refrigerator")
        let controller = try await bed.controller()
        let node = NodeID(41)
        let result = try await controller.commission(device.request(nodeID: node))
        let types = result.node.deviceTypes.map { "\($0.endpoint.rawValue):\($0.deviceType.rawValue)" }
        #expect(types.contains("1:112") && types.contains("2:113"), "\(types)")
        let parts = try await controller.readAttribute(
            node, endpoint: EndpointID(1), cluster: .descriptor, attribute: .Descriptor.partsList)
        #expect(numbers(parts.value) == [2])
        let root = try await controller.readAttribute(
            node, endpoint: .root, cluster: .descriptor, attribute: .Descriptor.partsList)
        #expect(numbers(root.value) == [1, 2])
        // The cabinet is a temperature-controlled cabinet: its TemperatureControl answers on endpoint 2.
        let served = try await controller.readAttribute(
            node, endpoint: EndpointID(2), cluster: .descriptor, attribute: .Descriptor.serverList)
        #expect(numbers(served.value).contains(UInt64(ClusterID.temperatureControl.rawValue)))
        await controller.stop()
        await device.stop()
    }

    @Test(
        "a battery storage: its two power sources are told apart by the tags our controller reads; the battery's has BAT"
    )
    func batteryStorage() async throws {
        let bed = try TestBed()
        let device = try await bed.device("battery-storage")
        let controller = try await bed.controller()
        let node = NodeID(42)
        _ = try await controller.commission(device.request(nodeID: node))
        let parts = numbers(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: .descriptor, attribute: .Descriptor.partsList
            ).value)
        #expect(parts.count == 4)
        var tags: [UInt64: TLVValue] = [:]
        for part in parts {
            let endpoint = EndpointID(UInt16(part))
            tags[part] = try await controller.readAttribute(
                node, endpoint: endpoint, cluster: .descriptor, attribute: .Descriptor.tagList
            ).value
        }
        func tag(_ value: TLVValue?) -> (UInt64, UInt64)? {
            guard case .array(let list)? = value, case .structure(let fields)? = list.first?.value,
                case .unsigned(let namespace)? = fields.first(where: { $0.tag == .context(1) })?.value,
                case .unsigned(let tag)? = fields.first(where: { $0.tag == .context(2) })?.value
            else { return nil }
            return (namespace, tag)
        }
        // Power Source namespace (0x0F): Grid 1 and Battery 3; Electrical Measurement (0x0A): AC 1 and DC 0.
        let found = Set(parts.compactMap { tag(tags[$0]).map { "\($0.0):\($0.1)" } })
        #expect(found == ["15:1", "15:3", "10:1", "10:0"], "\(tags)")
        let battery = try #require(parts.first { tag(tags[$0]).map { $0 == (15, 3) } == true })
        let featureMap = try await controller.readAttribute(
            node, endpoint: EndpointID(UInt16(battery)), cluster: .powerSource, attribute: .featureMap)
        guard case .unsigned(let map)? = featureMap.value else {
            Issue.record("no FeatureMap: \(featureMap)")
            return
        }
        #expect(map & 0b10 != 0)  // BAT
        await controller.stop()
        await device.stop()
    }

    @Test(
        "a camera: our controller allocates and frees a video stream and opens and ends a WebRTC session; unknown IDs are NOT_FOUND"
    )
    func camera() async throws {
        let bed = try TestBed()
        let device = try await bed.device("camera")
        let controller = try await bed.controller()
        let node = NodeID(43)
        _ = try await controller.commission(device.request(nodeID: node))
        typealias AV = Clusters.CameraAvStreamManagement
        let resolution = AV.VideoResolutionStruct(width: 1280, height: 720)
        let allocate = AV.Commands.VideoStreamAllocate(
            streamUsage: .liveView, videoCodec: .h264, minFrameRate: 15, maxFrameRate: 30,
            minResolution: resolution, maxResolution: resolution, minBitRate: 10_000, maxBitRate: 2_000_000,
            keyFrameInterval: 4000)
        let allocated = try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .cameraAvStreamManagement,
            command: .CameraAvStreamManagement.videoStreamAllocate, fields: members(allocate))
        guard case .response(let command, let fields) = allocated else {
            Issue.record("no response: \(allocated)")
            return
        }
        #expect(command == .CameraAvStreamManagement.videoStreamAllocateResponse)
        let response = try AV.Commands.VideoStreamAllocateResponse(tlv: TLVElement(fields))
        let streams = try await controller.readAttribute(
            node, endpoint: EndpointID(1), cluster: .cameraAvStreamManagement,
            attribute: .CameraAvStreamManagement.allocatedVideoStreams)
        guard case .array(let list)? = streams.value, let first = list.first else {
            Issue.record("no stream: \(streams)")
            return
        }
        let stream = try AV.VideoStreamStruct(tlv: first)
        #expect(stream.videoStreamID == response.videoStreamID)
        #expect(stream.maxResolution == resolution && stream.videoCodec == .h264)

        typealias WebRTC = Clusters.WebRtcTransportProvider
        let solicit = WebRTC.Commands.SolicitOffer(
            streamUsage: .liveView, originatingEndpointID: 1, videoStreamID: .value(response.videoStreamID))
        let offered = try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .webRtcTransportProvider,
            command: .WebRtcTransportProvider.solicitOffer, fields: members(solicit))
        guard case .response(_, let offerFields) = offered else {
            Issue.record("no response: \(offered)")
            return
        }
        let session = try WebRTC.Commands.SolicitOfferResponse(tlv: TLVElement(offerFields))
        #expect(session.deferredOffer)
        let current = try await controller.readAttribute(
            node, endpoint: EndpointID(1), cluster: .webRtcTransportProvider,
            attribute: .WebRtcTransportProvider.currentSessions)
        guard case .array(let sessions)? = current.value, let entry = sessions.first else {
            Issue.record("no session: \(current)")
            return
        }
        let recorded = try Clusters.WebRtcTransportDefinitions.WebRTCSessionStruct(tlv: entry)
        #expect(recorded.id == session.webRtcSessionID && recorded.peerNodeID != 0 && recorded.fabricIndex == 1)

        let end = WebRTC.Commands.EndSession(webRtcSessionID: session.webRtcSessionID, reason: .userHangup)
        try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .webRtcTransportProvider,
            command: .WebRtcTransportProvider.endSession, fields: members(end))
        await #expect(throws: ControllerError.self) {
            try await controller.invoke(
                node, endpoint: EndpointID(1), cluster: .webRtcTransportProvider,
                command: .WebRtcTransportProvider.endSession, fields: members(end))
        }
        let free = AV.Commands.VideoStreamDeallocate(videoStreamID: response.videoStreamID)
        try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .cameraAvStreamManagement,
            command: .CameraAvStreamManagement.videoStreamDeallocate, fields: members(free))
        do {
            try await controller.invoke(
                node, endpoint: EndpointID(1), cluster: .cameraAvStreamManagement,
                command: .CameraAvStreamManagement.videoStreamDeallocate, fields: members(free))
            Issue.record("a freed stream was freed again")
        } catch let error as ControllerError {
            guard case .status(let status, _) = error.underlying else {
                Issue.record("not a status: \(error)")
                return
            }
            #expect(status == StatusIB(.notFound))
        }
        await controller.stop()
        await device.stop()
    }

    @Test(
        "a water valve (time scale 10) opened for 3 s by our controller: its subscription sees it open and close by itself, with ValveStateChanged events"
    )
    func waterValve() async throws {
        let bed = try TestBed()
        let device = try await bed.device("water-valve", timeScale: 10)
        let controller = try await bed.controller()
        let node = NodeID(44)
        _ = try await controller.commission(device.request(nodeID: node))
        let state = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .valveConfigurationAndControl,
            attribute: .ValveConfigurationAndControl.currentState)
        let reported = try await ReportedIntegers.subscribe(controller, node, [state])
        try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .valveConfigurationAndControl,
            command: .ValveConfigurationAndControl.open, fields: [TLVElement(tag: .context(0), .unsigned(3))])
        // Transitioning (2), open (1), transitioning, closed (0): the last value reported is closed.
        #expect(await eventually(within: .seconds(20)) { reported[state].contains(1) && reported[state].last == 0 })
        let events = try await controller.readEvents(
            node,
            paths: [
                EventPathIB(
                    endpoint: EndpointID(1), cluster: .valveConfigurationAndControl,
                    event: .ValveConfigurationAndControl.valveStateChanged)
            ]
        ).events
        let states = events.compactMap { $0.fields.first { $0.name == "ValveState" }?.value }
        #expect(states == [.unsigned(1), .unsigned(0)], "\(events)")
        try await controller.cancel(reported.subscription)
        await controller.stop()
        await device.stop()
    }

    @Test(
        "a basic video player: Play and FastForward from our controller answer Success; CurrentState and speed follow")
    func videoPlayer() async throws {
        let bed = try TestBed()
        let device = try await bed.device("basic-video-player")
        let controller = try await bed.controller()
        let node = NodeID(45)
        _ = try await controller.commission(device.request(nodeID: node))
        for command in [CommandID.MediaPlayback.play, .MediaPlayback.fastForward] {
            let result = try await controller.invoke(
                node, endpoint: EndpointID(1), cluster: .mediaPlayback, command: command)
            guard case .response(let response, .structure(let fields)) = result else {
                Issue.record("no response: \(result)")
                return
            }
            #expect(response == .MediaPlayback.playbackResponse)
            #expect(fields.first?.value == .unsigned(0))
        }
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: .mediaPlayback, attribute: .MediaPlayback.currentState)
                == .value(.unsigned(0)))
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: .mediaPlayback, attribute: .MediaPlayback.playbackSpeed)
                == .value(.float(2)))
        await controller.stop()
        await device.stop()
    }
}
