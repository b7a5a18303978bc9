import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

private typealias AV = Clusters.CameraAvStreamManagement
private typealias WebRTC = Clusters.WebRtcTransportProvider

extension ClusterBehaviour {
    /// Camera AV Stream Management: streams are allocated and deallocated as a camera does (each in its
    /// Allocated…Streams list with an ID of its own, answered by its …AllocateResponse; an unknown ID is NOT_FOUND).
    /// No media is encoded: nothing flows on an allocated stream.
    static let cameraAvStreamManagement = ClusterBehaviour { server in
        // A 1080p camera at 30 frames per second: H.264 video, Opus audio at 48 kHz, JPEG snapshots.
        let fullHD = AV.VideoResolutionStruct(width: 1920, height: 1080)
        let defaults: [(AttributeID, TLVValue?)] = [
            (.CameraAvStreamManagement.maxConcurrentEncoders, try? encoded(UInt8(1))),
            (.CameraAvStreamManagement.maxEncodedPixelRate, try? encoded(UInt32(1920 * 1080 * 30))),
            (
                .CameraAvStreamManagement.videoSensorParams,
                try? encoded(AV.VideoSensorParamsStruct(sensorWidth: 1920, sensorHeight: 1080, maxFps: 30))
            ),
            (
                .CameraAvStreamManagement.minViewportResolution,
                try? encoded(AV.VideoResolutionStruct(width: 640, height: 360))
            ),
            (
                .CameraAvStreamManagement.rateDistortionTradeOffPoints,
                try? encoded(list: [
                    AV.RateDistortionTradeOffPointsStruct(codec: .h264, resolution: fullHD, minBitRate: 1_000_000)
                ])
            ),
            (.CameraAvStreamManagement.maxContentBufferSize, try? encoded(UInt32(4_000_000))),
            (
                .CameraAvStreamManagement.microphoneCapabilities,
                try? encoded(
                    AV.AudioCapabilitiesStruct(
                        maxNumberOfChannels: 1, supportedCodecs: [.opus], supportedSampleRates: [48_000],
                        supportedBitDepths: [16]))
            ),
            (
                .CameraAvStreamManagement.snapshotCapabilities,
                try? encoded(list: [
                    AV.SnapshotCapabilitiesStruct(
                        resolution: fullHD, maxFrameRate: 1, imageCodec: .jpeg, requiresEncodedPixels: false)
                ])
            ),
            (.CameraAvStreamManagement.maxNetworkBandwidth, try? encoded(UInt32(20_000_000))),
            (.CameraAvStreamManagement.currentFrameRate, try? encoded(UInt16(30))),
            (
                .CameraAvStreamManagement.supportedStreamUsages,
                try? encoded(list: [Clusters.Global.StreamUsageEnum.recording, .liveView])
            ),
            (
                .CameraAvStreamManagement.streamUsagePriorities,
                try? encoded(list: [Clusters.Global.StreamUsageEnum.liveView, .recording])
            ),
            (
                .CameraAvStreamManagement.viewport,
                try? encoded(Clusters.Global.ViewportStruct(x1: 0, y1: 0, x2: 1920, y2: 1080))
            ),
            (.CameraAvStreamManagement.microphoneMaxLevel, try? encoded(UInt8(254))),
            (.CameraAvStreamManagement.microphoneMinLevel, try? encoded(UInt8(0))),
            (.CameraAvStreamManagement.microphoneVolumeLevel, try? encoded(UInt8(128))),
        ]
        for (attribute, value) in defaults {
            if let value { server.update(attribute, value) }
        }
        server.handle(.CameraAvStreamManagement.setStreamPriorities) {
            (server, fields, _) throws(StatusIB) -> CommandResponse? in
            let request = try decode(AV.Commands.SetStreamPriorities.self, fields)
            let supported = try list(
                Clusters.Global.StreamUsageEnum.self, server, .CameraAvStreamManagement.supportedStreamUsages)
            guard Set(request.streamPriorities).count == request.streamPriorities.count,
                request.streamPriorities.allSatisfy(supported.contains)
            else { throw StatusIB(.constraintError) }
            try store(request.streamPriorities, server, .CameraAvStreamManagement.streamUsagePriorities)
            return nil
        }
        server.handle(.CameraAvStreamManagement.captureSnapshot) {
            (server, fields, _) throws(StatusIB) -> CommandResponse? in
            let request = try decode(AV.Commands.CaptureSnapshot.self, fields)
            let streams = try list(
                AV.SnapshotStreamStruct.self, server, .CameraAvStreamManagement.allocatedSnapshotStreams)
            let stream =
                request.snapshotStreamID.optional.flatMap { id in
                    streams.first { $0.snapshotStreamID == id }
                } ?? (request.snapshotStreamID.optional == nil ? streams.first : nil)
            guard stream != nil else { throw StatusIB(.notFound) }
            return try respond(
                AV.Commands.CaptureSnapshotResponse(
                    data: GrayJPEG.bytes, imageCodec: .jpeg, resolution: AV.VideoResolutionStruct(width: 8, height: 8)))
        }
        server.handle(.CameraAvStreamManagement.videoStreamAllocate) {
            (server, fields, _) throws(StatusIB) -> CommandResponse? in
            let request = try decode(AV.Commands.VideoStreamAllocate.self, fields)
            guard request.minFrameRate <= request.maxFrameRate, request.minBitRate <= request.maxBitRate else {
                throw StatusIB(.constraintError)
            }
            var streams = try list(AV.VideoStreamStruct.self, server, .CameraAvStreamManagement.allocatedVideoStreams)
            let id = nextID(streams.map(\.videoStreamID))
            streams.append(
                AV.VideoStreamStruct(
                    videoStreamID: id, streamUsage: request.streamUsage, videoCodec: request.videoCodec,
                    minFrameRate: request.minFrameRate, maxFrameRate: request.maxFrameRate,
                    minResolution: request.minResolution, maxResolution: request.maxResolution,
                    minBitRate: request.minBitRate, maxBitRate: request.maxBitRate,
                    keyFrameInterval: request.keyFrameInterval, watermarkEnabled: request.watermarkEnabled,
                    osdEnabled: request.osdEnabled, referenceCount: 0))
            try store(streams, server, .CameraAvStreamManagement.allocatedVideoStreams)
            return try respond(AV.Commands.VideoStreamAllocateResponse(videoStreamID: id))
        }
        server.handle(.CameraAvStreamManagement.videoStreamDeallocate) {
            (server, fields, _) throws(StatusIB) -> CommandResponse? in
            let request = try decode(AV.Commands.VideoStreamDeallocate.self, fields)
            let attribute = AttributeID.CameraAvStreamManagement.allocatedVideoStreams
            let streams = try list(AV.VideoStreamStruct.self, server, attribute)
            guard streams.contains(where: { $0.videoStreamID == request.videoStreamID }) else {
                throw StatusIB(.notFound)
            }
            try store(streams.filter { $0.videoStreamID != request.videoStreamID }, server, attribute)
            return nil
        }
        server.handle(.CameraAvStreamManagement.audioStreamAllocate) {
            (server, fields, _) throws(StatusIB) -> CommandResponse? in
            let request = try decode(AV.Commands.AudioStreamAllocate.self, fields)
            var streams = try list(AV.AudioStreamStruct.self, server, .CameraAvStreamManagement.allocatedAudioStreams)
            let id = nextID(streams.map(\.audioStreamID))
            streams.append(
                AV.AudioStreamStruct(
                    audioStreamID: id, streamUsage: request.streamUsage, audioCodec: request.audioCodec,
                    channelCount: request.channelCount, sampleRate: request.sampleRate, bitRate: request.bitRate,
                    bitDepth: request.bitDepth, referenceCount: 0))
            try store(streams, server, .CameraAvStreamManagement.allocatedAudioStreams)
            return try respond(AV.Commands.AudioStreamAllocateResponse(audioStreamID: id))
        }
        server.handle(.CameraAvStreamManagement.audioStreamDeallocate) {
            (server, fields, _) throws(StatusIB) -> CommandResponse? in
            let request = try decode(AV.Commands.AudioStreamDeallocate.self, fields)
            let attribute = AttributeID.CameraAvStreamManagement.allocatedAudioStreams
            let streams = try list(AV.AudioStreamStruct.self, server, attribute)
            guard streams.contains(where: { $0.audioStreamID == request.audioStreamID }) else {
                throw StatusIB(.notFound)
            }
            try store(streams.filter { $0.audioStreamID != request.audioStreamID }, server, attribute)
            return nil
        }
        server.handle(.CameraAvStreamManagement.snapshotStreamAllocate) {
            (server, fields, _) throws(StatusIB) -> CommandResponse? in
            let request = try decode(AV.Commands.SnapshotStreamAllocate.self, fields)
            let attribute = AttributeID.CameraAvStreamManagement.allocatedSnapshotStreams
            var streams = try list(AV.SnapshotStreamStruct.self, server, attribute)
            let id = nextID(streams.map(\.snapshotStreamID))
            streams.append(
                AV.SnapshotStreamStruct(
                    snapshotStreamID: id, imageCodec: request.imageCodec, frameRate: request.maxFrameRate,
                    minResolution: request.minResolution, maxResolution: request.maxResolution,
                    quality: request.quality, referenceCount: 0, encodedPixels: false, hardwareEncoder: false,
                    watermarkEnabled: request.watermarkEnabled, osdEnabled: request.osdEnabled))
            try store(streams, server, attribute)
            return try respond(AV.Commands.SnapshotStreamAllocateResponse(snapshotStreamID: id))
        }
        server.handle(.CameraAvStreamManagement.snapshotStreamDeallocate) {
            (server, fields, _) throws(StatusIB) -> CommandResponse? in
            let request = try decode(AV.Commands.SnapshotStreamDeallocate.self, fields)
            let attribute = AttributeID.CameraAvStreamManagement.allocatedSnapshotStreams
            let streams = try list(AV.SnapshotStreamStruct.self, server, attribute)
            guard streams.contains(where: { $0.snapshotStreamID == request.snapshotStreamID }) else {
                throw StatusIB(.notFound)
            }
            try store(streams.filter { $0.snapshotStreamID != request.snapshotStreamID }, server, attribute)
            return nil
        }
    }

    /// WebRTC Transport Provider: sessions are opened (SolicitOffer, or ProvideOffer without a session), kept in
    /// CurrentSessions with the peer that opened them and its fabric, and ended (EndSession); an answer or ICE
    /// candidates for a session the peer does not hold is NOT_FOUND. No media is sent: a solicited offer is deferred
    /// and never made.
    static let webRtcTransportProvider = ClusterBehaviour { server in
        server.handle(.WebRtcTransportProvider.solicitOffer) {
            (server, fields, context) throws(StatusIB) -> CommandResponse? in
            let request = try decode(WebRTC.Commands.SolicitOffer.self, fields)
            let id = try open(
                server, context, usage: request.streamUsage, endpoint: request.originatingEndpointID,
                video: request.videoStreamID, audio: request.audioStreamID, metadata: request.metadataEnabled)
            return try respond(
                WebRTC.Commands.SolicitOfferResponse(
                    webRtcSessionID: id, deferredOffer: true, videoStreamID: request.videoStreamID,
                    audioStreamID: request.audioStreamID))
        }
        server.handle(.WebRtcTransportProvider.provideOffer) {
            (server, fields, context) throws(StatusIB) -> CommandResponse? in
            let request = try decode(WebRTC.Commands.ProvideOffer.self, fields)
            let id: UInt16
            if let existing = request.webRtcSessionID.optional {
                guard try sessions(server).contains(where: { $0.id == existing && owns($0, context) }) else {
                    throw StatusIB(.notFound)
                }
                id = existing
            } else {
                guard let usage = request.streamUsage, let endpoint = request.originatingEndpointID else {
                    throw StatusIB(.invalidCommand)
                }
                id = try open(
                    server, context, usage: usage, endpoint: endpoint, video: request.videoStreamID,
                    audio: request.audioStreamID, metadata: request.metadataEnabled)
            }
            return try respond(
                WebRTC.Commands.ProvideOfferResponse(
                    webRtcSessionID: id, videoStreamID: request.videoStreamID, audioStreamID: request.audioStreamID))
        }
        server.handle(.WebRtcTransportProvider.provideAnswer) {
            (server, fields, context) throws(StatusIB) -> CommandResponse? in
            let request = try decode(WebRTC.Commands.ProvideAnswer.self, fields)
            guard try sessions(server).contains(where: { $0.id == request.webRtcSessionID && owns($0, context) })
            else { throw StatusIB(.notFound) }
            return nil
        }
        server.handle(.WebRtcTransportProvider.provideIceCandidates) {
            (server, fields, context) throws(StatusIB) -> CommandResponse? in
            let request = try decode(WebRTC.Commands.ProvideIceCandidates.self, fields)
            guard try sessions(server).contains(where: { $0.id == request.webRtcSessionID && owns($0, context) })
            else { throw StatusIB(.notFound) }
            return nil
        }
        server.handle(.WebRtcTransportProvider.endSession) {
            (server, fields, context) throws(StatusIB) -> CommandResponse? in
            let request = try decode(WebRTC.Commands.EndSession.self, fields)
            let current = try sessions(server)
            guard current.contains(where: { $0.id == request.webRtcSessionID && owns($0, context) }) else {
                throw StatusIB(.notFound)
            }
            try store(
                current.filter { $0.id != request.webRtcSessionID }, server, .WebRtcTransportProvider.currentSessions)
            return nil
        }
    }
}

extension ClusterBehaviour {
    /// WebRTC Transport Requestor (an intercom, which asks other intercoms for their stream): an Offer, Answer, ICE
    /// candidates or End concern a session the requestor opened with that peer (its CurrentSessions), else they are
    /// NOT_FOUND; End forgets the session. No media is sent, and the emulated requestor opens no session itself.
    static let webRtcTransportRequestor = ClusterBehaviour { server in
        let commands: [CommandID] = [
            .WebRtcTransportRequestor.offer, .WebRtcTransportRequestor.answer,
            .WebRtcTransportRequestor.iceCandidates, .WebRtcTransportRequestor.end,
        ]
        for command in commands {
            server.handle(command) { (server, fields, context) throws(StatusIB) -> CommandResponse? in
                let id = try fields.unsigned(0, UInt16.self)
                let current = try list(Session.self, server, .WebRtcTransportRequestor.currentSessions)
                guard current.contains(where: { $0.id == id && owns($0, context) }) else { throw StatusIB(.notFound) }
                if command == .WebRtcTransportRequestor.end {
                    try store(current.filter { $0.id != id }, server, .WebRtcTransportRequestor.currentSessions)
                }
                return nil
            }
        }
    }
}

private typealias Session = Clusters.WebRtcTransportDefinitions.WebRTCSessionStruct

/// A new session for the peer of `context`, in CurrentSessions; its ID.
private func open(
    _ server: GenericClusterServer, _ context: InteractionContext, usage: Clusters.Global.StreamUsageEnum,
    endpoint: UInt16, video: TLVNullable<UInt16>?, audio: TLVNullable<UInt16>?, metadata: Bool?
) throws(StatusIB) -> UInt16 {
    var current = try sessions(server)
    let id = nextID(current.map(\.id))
    current.append(
        Session(
            id: id, peerNodeID: context.subject.subject, peerEndpointID: endpoint, streamUsage: usage,
            videoStreamID: video, audioStreamID: audio, metadataEnabled: metadata ?? false,
            fabricIndex: context.subject.fabricIndex))
    try store(current, server, .WebRtcTransportProvider.currentSessions)
    return id
}

private func sessions(_ server: GenericClusterServer) throws(StatusIB) -> [Session] {
    try list(Session.self, server, .WebRtcTransportProvider.currentSessions)
}

/// True when the session was opened by the peer of `context` (same node on the same fabric).
private func owns(_ session: Session, _ context: InteractionContext) -> Bool {
    session.peerNodeID == context.subject.subject && session.fabricIndex == context.subject.fabricIndex
}

/// The lowest ID above every one in use (IDs are not reused while the device runs).
private func nextID(_ used: [UInt16]) -> UInt16 { (used.max() ?? 0) &+ 1 }
