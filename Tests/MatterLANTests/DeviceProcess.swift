import Foundation
import MatterTestSupport

/// A `matter-emu device ... --json` running in a LAN host: its onboarding line and its event lines.
struct DeviceProcess {
    let name: String
    let process: RunningProcess

    /// Starts the device in `host` with its state in `work/STATE` (default `work/NAME`), factory-reset
    /// unless `factoryReset` is false (a restart on kept state), and waits for its `started` line.
    init(
        _ name: String, on host: String, lan: LAN, work: WorkDirectory, _ arguments: [String],
        state: String? = nil, factoryReset: Bool = true
    ) throws {
        self.name = name
        process = try lan.start(
            host,
            [BuiltBinaries.matterEmu, "device"] + arguments + ["--state-dir", work.path(state ?? name), "--json"]
                + (factoryReset ? ["--factory-reset"] : []),
            name: name, in: work)
        guard started != nil else {
            throw LANError.unexpected("device \(name) did not start: \(process.stderr)")
        }
    }

    /// The `{"event":"started",...}` line (waits for it).
    var started: [String: Any]? { process.jsonLine(within: .seconds(20)) { $0["event"] as? String == "started" } }
    var qrCode: String { started?["qrCode"] as? String ?? "" }
    var manualCode: String { started?["manualCode"] as? String ?? "" }

    /// How many event lines it printed so far (a mark for `reports(after:)`).
    var eventCount: Int { process.jsonLines.count }

    /// Waits (hang guard about 3 s) for an event after `mark` satisfying `condition`.
    func reports(after mark: Int = 0, timeout: Double = 3, _ condition: @escaping ([String: Any]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if process.jsonLines.dropFirst(mark).contains(where: condition) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }

    /// `{"event":"attribute","endpoint":E,"cluster":C,"attribute":A,...}` with `value` satisfying `matches`.
    static func attribute(
        _ cluster: String, _ attribute: String, endpoint: Int = 1, _ matches: @escaping (Any?) -> Bool
    ) -> ([String: Any]) -> Bool {
        { event in
            event["event"] as? String == "attribute" && event["endpoint"] as? Int == endpoint
                && event["cluster"] as? String == cluster && event["attribute"] as? String == attribute
                && matches(event["value"])
        }
    }

    static func onOff(_ on: Bool) -> ([String: Any]) -> Bool { attribute("OnOff", "OnOff") { $0 as? Bool == on } }
}
