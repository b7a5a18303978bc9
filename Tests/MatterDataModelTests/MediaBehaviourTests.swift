import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

/// Video players and content apps (MediaBehaviour): playback states and speed, seeking, tracks, keys, launchers.
@Suite("Media playback, keys and launchers")
struct MediaBehaviourTests {
    typealias Playback = AttributeID.MediaPlayback

    /// The PlaybackResponse status of a MediaPlayback command.
    func status(_ bench: Bench, _ command: CommandID, _ members: [UInt8: TLVValue] = [:]) throws -> TLVValue? {
        guard let response = try bench.invoke(1, .mediaPlayback, command, members),
            case .structure(let fields) = response.fields
        else { return nil }
        return fields.first { $0.tag == .context(0) }?.value
    }

    @Test(
        "a basic video player: stopped at first; Play, FastForward twice (4×), Rewind, Seek, Stop; NotAllowed when stopped"
    )
    func playback() throws {
        let bench = try Bench(try DevicePreset(cliName: "basic-video-player"))
        #expect(bench.value(1, .mediaPlayback, Playback.currentState) == .unsigned(2))
        #expect(try status(bench, .MediaPlayback.pause) == .unsigned(2))  // NotAllowed
        #expect(try status(bench, .MediaPlayback.play) == .unsigned(0))
        #expect(bench.value(1, .mediaPlayback, Playback.currentState) == .unsigned(0))
        #expect(bench.value(1, .mediaPlayback, Playback.playbackSpeed) == .float(1))
        _ = try status(bench, .MediaPlayback.fastForward)
        _ = try status(bench, .MediaPlayback.fastForward)
        #expect(bench.value(1, .mediaPlayback, Playback.playbackSpeed) == .float(4))
        _ = try status(bench, .MediaPlayback.rewind)
        #expect(bench.value(1, .mediaPlayback, Playback.playbackSpeed) == .float(-2))
        #expect(try status(bench, .MediaPlayback.seek, [0: .unsigned(60_000)]) == .unsigned(0))
        guard case .structure(let sampled)? = bench.value(1, .mediaPlayback, Playback.sampledPosition) else {
            Issue.record("no SampledPosition")
            return
        }
        #expect(sampled.first { $0.tag == .context(1) }?.value == .unsigned(60_000))
        #expect(try status(bench, .MediaPlayback.seek, [0: .unsigned(7_200_000)]) == .unsigned(5))  // SeekOutOfRange
        #expect(try status(bench, .MediaPlayback.stop) == .unsigned(0))
        #expect(bench.value(1, .mediaPlayback, Playback.currentState) == .unsigned(2))
        let states = bench.model.eventRecords(from: 0).filter {
            $0.path.cluster == .mediaPlayback && $0.path.event == .MediaPlayback.stateChanged
        }
        #expect(states.count == 5)  // playing at 1×, 2×, 4×, -2×, then not playing
    }

    @Test("audio tracks: English active, French taken, an unknown track NOT_FOUND; keys and launchers answer")
    func tracksKeysAndLaunchers() throws {
        let bench = try Bench(try DevicePreset(cliName: "casting-video-player"))
        #expect(
            bench.status(1, .mediaPlayback, .MediaPlayback.activateAudioTrack, [0: .utf8("de"), 1: .unsigned(0)])
                == .notFound)
        try bench.invoke(1, .mediaPlayback, .MediaPlayback.activateAudioTrack, [0: .utf8("fr"), 1: .unsigned(0)])
        guard case .structure(let track)? = bench.value(1, .mediaPlayback, Playback.activeAudioTrack) else {
            Issue.record("no ActiveAudioTrack")
            return
        }
        #expect(track.first?.value == .utf8("fr"))
        let key = try bench.invoke(1, .keypadInput, .KeypadInput.sendKey, [0: .unsigned(0x00)])  // Select
        #expect(key?.fields == .structure([TLVElement(tag: .context(0), .unsigned(0))]))
        let url = try bench.invoke(1, .contentLauncher, .ContentLauncher.launchURL, [0: .utf8("")])
        guard case .structure(let answer)? = url?.fields else {
            Issue.record("no LauncherResponse")
            return
        }
        #expect(answer.first?.value == .unsigned(1))  // URLNotAvailable
    }
}
