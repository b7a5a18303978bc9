import Foundation
import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

private typealias Media = Clusters.MediaPlayback

extension ClusterBehaviour {
    /// Media Playback (a video player, a content app): an hour of content with two audio tracks (English, French)
    /// and one text track, not playing at first. Play, Pause and Stop change CurrentState and PlaybackSpeed;
    /// FastForward and Rewind double the speed each time (up to 16×, either way) while playing or paused; Seek
    /// and the skips move the position within the seek range (SeekOutOfRange beyond it); the position follows
    /// the speed over time and is sampled (SampledPosition) at every change; every change of state records
    /// StateChanged. Commands that need content answer NotAllowed when stopped. No media is decoded.
    static let mediaPlayback = ClusterBehaviour(
        commands: [.MediaPlayback.startOver, .MediaPlayback.skipForward, .MediaPlayback.skipBackward],
        events: [.MediaPlayback.stateChanged]
    ) { server in
        let duration: UInt64 = 3_600_000
        let playing: UInt64 = 0
        let paused: UInt64 = 1
        let notPlaying: UInt64 = 2
        var position: UInt64 = 0
        var speed: Float = 0
        var sampledAt: UInt64 = 0
        let english = Media.TrackStruct(
            id: "en", trackAttributes: Media.TrackAttributesStruct(languageCode: "en", displayName: .value("English")))
        let french = Media.TrackStruct(
            id: "fr", trackAttributes: Media.TrackAttributesStruct(languageCode: "fr", displayName: .value("Français")))
        let subtitles = Media.TrackStruct(
            id: "en-cc",
            trackAttributes: Media.TrackAttributesStruct(languageCode: "en", displayName: .value("English subtitles")))
        func current(_ server: GenericClusterServer) -> UInt64 {
            let elapsed = Float(server.now &- sampledAt) * speed
            return UInt64(max(0, min(Float(duration), Float(position) + elapsed)))
        }
        func sample(_ server: GenericClusterServer, at newPosition: UInt64? = nil) {
            position = newPosition ?? current(server)
            sampledAt = server.now
            let updatedAt = UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000))
            server.update(
                .MediaPlayback.sampledPosition,
                .structure([
                    TLVElement(tag: .context(0), .unsigned(updatedAt)),
                    TLVElement(tag: .context(1), .unsigned(position)),
                ]))
            server.update(.MediaPlayback.playbackSpeed, .float(speed))
        }
        func change(_ server: GenericClusterServer, to state: UInt64, speed newSpeed: Float) {
            sample(server)
            speed = newSpeed
            server.update(.MediaPlayback.playbackSpeed, .float(speed))
            guard server.unsignedValue(.MediaPlayback.currentState) != state || state == playing else { return }
            server.update(.MediaPlayback.currentState, .unsigned(state))
            let now = UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000))
            let event = Media.Events.StateChanged(
                currentState: Media.PlaybackStateEnum(rawValue: UInt8(state)) ?? .notPlaying, startTime: 0,
                duration: duration,
                sampledPosition: Media.PlaybackPositionStruct(updatedAt: now, position: .value(position)),
                playbackSpeed: speed, seekRangeEnd: duration, seekRangeStart: 0)
            if let fields = try? encoded(event) { server.recordEvent(.MediaPlayback.stateChanged, fields: fields) }
        }
        func answer(_ status: Media.StatusEnum) throws(StatusIB) -> CommandResponse {
            try respond(Media.Commands.PlaybackResponse(status: status))
        }
        server.update(.MediaPlayback.currentState, .unsigned(notPlaying))
        server.update(.MediaPlayback.startTime, .unsigned(0))
        server.update(.MediaPlayback.duration, .unsigned(duration))
        server.update(.MediaPlayback.seekRangeStart, .unsigned(0))
        server.update(.MediaPlayback.seekRangeEnd, .unsigned(duration))
        server.update(.MediaPlayback.playbackSpeed, .float(0))
        if let tracks = try? [english, french].map(encoded), let active = try? encoded(english),
            let texts = try? encoded(subtitles)
        {
            server.update(.MediaPlayback.availableAudioTracks, .array(tracks.map { TLVElement($0) }))
            server.update(.MediaPlayback.activeAudioTrack, active)
            server.update(.MediaPlayback.availableTextTracks, .array([TLVElement(texts)]))
            server.update(.MediaPlayback.activeTextTrack, .null)
        }
        server.onStart { server in
            // A position already sampled (a twin's recording, a restart) is kept as it is.
            guard case .structure(let fields)? = server.value(.MediaPlayback.sampledPosition),
                case .unsigned(let sampled)? = fields.first(where: { $0.tag == .context(1) })?.value
            else { return sample(server, at: 0) }
            position = sampled
            sampledAt = server.now
        }
        server.handle(.MediaPlayback.play) { server, _, _ throws(StatusIB) -> CommandResponse? in
            change(server, to: playing, speed: 1)
            return try answer(.success)
        }
        server.handle(.MediaPlayback.pause) { server, _, _ throws(StatusIB) -> CommandResponse? in
            guard server.unsignedValue(.MediaPlayback.currentState) != notPlaying else {
                return try answer(.notAllowed)
            }
            change(server, to: paused, speed: 0)
            return try answer(.success)
        }
        server.handle(.MediaPlayback.stop) { server, _, _ throws(StatusIB) -> CommandResponse? in
            change(server, to: notPlaying, speed: 0)
            sample(server, at: 0)
            return try answer(.success)
        }
        server.handle(.MediaPlayback.startOver) { server, _, _ throws(StatusIB) -> CommandResponse? in
            sample(server, at: 0)
            change(server, to: playing, speed: 1)
            return try answer(.success)
        }
        for (command, sign) in [(CommandID.MediaPlayback.fastForward, Float(1)), (.MediaPlayback.rewind, -1)] {
            server.handle(command) { server, _, _ throws(StatusIB) -> CommandResponse? in
                guard server.unsignedValue(.MediaPlayback.currentState) != notPlaying else {
                    return try answer(.notAllowed)
                }
                let faster = speed * sign > 1 ? min(abs(speed) * 2, 16) : 2
                guard abs(faster) <= 16 else { return try answer(.speedOutOfRange) }
                change(server, to: playing, speed: faster * sign)
                return try answer(.success)
            }
        }
        server.handle(.MediaPlayback.seek) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Media.Commands.Seek.self, fields)
            guard server.unsignedValue(.MediaPlayback.currentState) != notPlaying else {
                return try answer(.notAllowed)
            }
            guard request.position <= duration else { return try answer(.seekOutOfRange) }
            sample(server, at: request.position)
            return try answer(.success)
        }
        for (command, sign) in [(CommandID.MediaPlayback.skipForward, Int64(1)), (.MediaPlayback.skipBackward, -1)] {
            server.handle(command) { server, fields, _ throws(StatusIB) -> CommandResponse? in
                let delta = try fields.unsigned(0, UInt64.self)
                guard server.unsignedValue(.MediaPlayback.currentState) != notPlaying else {
                    return try answer(.notAllowed)
                }
                let target = Int64(current(server)) + sign * Int64(min(delta, duration))
                sample(server, at: UInt64(max(0, min(Int64(duration), target))))
                return try answer(.success)
            }
        }
        server.handle(.MediaPlayback.activateAudioTrack) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Media.Commands.ActivateAudioTrack.self, fields)
            guard let track = [english, french].first(where: { $0.id == request.trackID }) else {
                throw StatusIB(.notFound)
            }
            server.update(.MediaPlayback.activeAudioTrack, try encoded(track))
            return nil
        }
        server.handle(.MediaPlayback.activateTextTrack) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Media.Commands.ActivateTextTrack.self, fields)
            guard request.trackID == subtitles.id else { throw StatusIB(.notFound) }
            server.update(.MediaPlayback.activeTextTrack, try encoded(subtitles))
            return nil
        }
        server.handle(.MediaPlayback.deactivateTextTrack) { server, _, _ throws(StatusIB) -> CommandResponse? in
            server.update(.MediaPlayback.activeTextTrack, .null)
            return nil
        }
    }

    /// Keypad Input: every key of the CEC key codes is taken (a note on the device's output) and answered
    /// Success; a code outside them is UnsupportedKey.
    static let keypadInput = ClusterBehaviour { server in
        server.handle(.KeypadInput.sendKey) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let code = try fields.unsigned(0, UInt8.self)
            guard let key = Clusters.KeypadInput.CecKeyCodeEnum(rawValue: code) else {
                return try respond(Clusters.KeypadInput.Commands.SendKeyResponse(status: .unsupportedKey))
            }
            server.note("key \(key)")
            return try respond(Clusters.KeypadInput.Commands.SendKeyResponse(status: .success))
        }
    }

    /// Content Launcher: a search or a URL is launched (a note on the device's output) and answered Success; an
    /// empty URL is URLNotAvailable.
    static let contentLauncher = ClusterBehaviour { server in
        typealias Launcher = Clusters.ContentLauncher
        server.handle(.ContentLauncher.launchContent) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            _ = try decode(Launcher.Commands.LaunchContent.self, fields)
            server.note("content launched")
            return try respond(Launcher.Commands.LauncherResponse(status: .success))
        }
        server.handle(.ContentLauncher.launchURL) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Launcher.Commands.LaunchURL.self, fields)
            guard !request.contentURL.isEmpty else {
                return try respond(Launcher.Commands.LauncherResponse(status: .urlNotAvailable))
            }
            server.note("launched \(request.contentURL)")
            return try respond(Launcher.Commands.LauncherResponse(status: .success))
        }
    }

    /// Application Launcher: an application of the catalogue (CatalogList's vendors) is launched, becoming
    /// CurrentApp, hidden or stopped (CurrentApp null); an application outside it is AppNotAvailable.
    static let applicationLauncher = ClusterBehaviour { server in
        typealias Launcher = Clusters.ApplicationLauncher
        func available(_ server: GenericClusterServer, _ application: Launcher.ApplicationStruct?) -> Bool {
            guard let application else { return server.value(.ApplicationLauncher.currentApp) != .null }
            guard case .array(let catalog)? = server.value(.ApplicationLauncher.catalogList) else { return false }
            return catalog.contains { $0.value == .unsigned(UInt64(application.catalogVendorID)) }
        }
        server.update(.ApplicationLauncher.catalogList, .array([TLVElement(.unsigned(0xFFF1))]))
        server.update(.ApplicationLauncher.currentApp, .null)
        server.handle(.ApplicationLauncher.launchApp) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Launcher.Commands.LaunchApp.self, fields)
            guard let application = request.application, available(server, application) else {
                return try respond(Launcher.Commands.LauncherResponse(status: .appNotAvailable))
            }
            server.update(
                .ApplicationLauncher.currentApp,
                try encoded(
                    Launcher.ApplicationEPStruct(application: application, endpoint: server.endpointID.rawValue)))
            return try respond(Launcher.Commands.LauncherResponse(status: .success))
        }
        for command in [CommandID.ApplicationLauncher.stopApp, .ApplicationLauncher.hideApp] {
            server.handle(command) { server, fields, _ throws(StatusIB) -> CommandResponse? in
                let application = try fields[0].map { element throws(StatusIB) in
                    do {
                        return try Launcher.ApplicationStruct(tlv: element)
                    } catch {
                        throw StatusIB(.invalidCommand)
                    }
                }
                guard available(server, application) else {
                    return try respond(Launcher.Commands.LauncherResponse(status: .appNotAvailable))
                }
                server.update(.ApplicationLauncher.currentApp, .null)
                return try respond(Launcher.Commands.LauncherResponse(status: .success))
            }
        }
    }
}
