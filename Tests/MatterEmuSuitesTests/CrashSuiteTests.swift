import Foundation
import MatterController
import MatterDevice
import MatterTestSupport
import Testing

/// Crash consistency of commissioning, on loopback: the built `matter-emu` is killed (SIGKILL) at
/// every named point of commissioning — on the device (`DeviceCheckpoint`) and on the commissioner
/// (`CommissioningCheckpoint`), through the CLI's test hook `MATTER_EMU_TEST_KILL_AT=<point>` — or
/// from outside at a random moment. Whatever died is restarted (the device on its state file and
/// port; the commissioner by running it again: `pairing resume` settles a commissioning it left
/// between AddNOC and its store write), then ``CrashWorkspace/verify(_:devicePort:)`` checks that the
/// device is either commissioned and working or commissionable again, with nothing half-added.
@Suite("Crash suite: kill -9 at every commissioning checkpoint (matter-emu on loopback)")
struct CrashSuiteTests {
    /// The device's points of commissioning (the ACL points have their own test).
    static let devicePoints = DeviceCheckpoint.allCases.filter { $0 != .aclWritten && $0 != .aclPersisted }

    @Test(
        "the device SIGKILLs itself at a point of commissioning, restarts, and the commissioning settles",
        arguments: devicePoints)
    func deviceKilled(at point: DeviceCheckpoint) async throws {
        try await CrashWorkspace.limit.run {
            let workspace = try CrashWorkspace(node: 1)
            let device = try await workspace.startDevice(killAt: point.rawValue)
            let pairing = try workspace.startPairing(port: device.port)
            let died = await device.process.exit(within: .seconds(20))
            #expect(
                died?.isTestHookKill(at: point.rawValue, stderr: device.process.stderr) == true,
                "device \(point): died by SIGKILL at the point (\(String(describing: died)))")
            let restarted = try await workspace.startDevice(port: device.port)
            // The running commissioning retries (from PASE, or CommissioningComplete on a new CASE
            // session) against the restarted device. On a loaded machine it may give up first, after
            // AddNOC: then it is run again, as a user would, and `pairing resume` settles what it left.
            let ended = await pairing.exit(within: .seconds(90))
            if ended == nil { pairing.signal() }
            var label = "device \(point) (the running commissioning: \(ended.map(\.description) ?? "hung, killed"))"
            if ended?.succeeded != true {
                let resume = try await workspace.ctl(["pairing", "resume", "--json"])
                #expect(resume.succeeded, "\(label): 'pairing resume' settles what it left: \(resume.stderr)")
                label += ", then resumed: \(resume.stdout.filter { !$0.isWhitespace })"
            }
            try await workspace.verify(label, devicePort: restarted.port)
            await restarted.stop()
        }
    }

    @Test(
        "the device SIGKILLs itself before or after persisting an ACL write; the ACL is the old or the new one",
        arguments: [DeviceCheckpoint.aclWritten, .aclPersisted])
    func deviceKilledInACLWrite(at point: DeviceCheckpoint) async throws {
        try await CrashWorkspace.limit.run {
            let workspace = try CrashWorkspace(node: 1)
            let device = try await workspace.startDevice(killAt: point.rawValue)
            let paired = try await ProcessRunner.runMatterEmu(
                workspace.pairing(port: device.port), limit: .seconds(180))
            #expect(paired.succeeded, "device \(point): commissioned: \(paired.stderr.suffix(600))")
            let acl =
                #"[{"privilege":5,"authMode":2,"subjects":[112233],"targets":null},"#
                + #"{"privilege":3,"authMode":2,"subjects":[4660],"targets":null}]"#
            let writer = try RunningProcess([
                ProcessRunner.matterEmu.path, "accesscontrol", "write", "acl", acl, "1", "--timeout", "2",
                "--state-dir",
                workspace.stateDirectory,
            ])
            let died = await device.process.exit(within: .seconds(20))
            #expect(
                died?.isTestHookKill(at: point.rawValue, stderr: device.process.stderr) == true,
                "device \(point): died by SIGKILL at the point (\(String(describing: died)))")
            if await writer.exit(within: .seconds(60)) == nil { writer.signal() }
            let restarted = try await workspace.startDevice(port: device.port)
            let read = try await workspace.ctl(["accesscontrol", "read", "acl", "1", "--json"])
            let entries = (try? read.json()["value"] as? [Any])?.count
            let want = point == .aclWritten ? 1 : 2
            let which = want == 1 ? "old" : "new"
            #expect(
                entries == want,
                "device \(point): after restart the ACL is the \(which) one (\(String(describing: entries)) entries): \(read.stderr)"
            )
            try await workspace.verify("device \(point)", devicePort: restarted.port)
            await restarted.stop()
        }
    }

    /// The user's retry of the same pairing after the commissioner died past AddNOC (Ctrl-C, a kill):
    /// finishing the interrupted run commissions the node asked for, and the retry says so and exits 0
    /// (issue 35, cause 11; before: it stored the node, then exited 2 "node N is already in the store").
    @Test(
        "a retry of the same pairing after the commissioner died past AddNOC exits 0 with the node",
        arguments: ["add-noc", "case-session", "commissioning-complete"])
    func retryAfterInterruptPastAddNOC(point: String) async throws {
        try await CrashWorkspace.limit.run {
            let workspace = try CrashWorkspace(node: 1)
            let device = try await workspace.startDevice()
            let pairing = try await ProcessRunner.runMatterEmu(
                workspace.pairing(port: device.port) + ["--json"], environment: ["MATTER_EMU_TEST_KILL_AT": point],
                limit: .seconds(60))
            #expect(pairing.termination.isTestHookKill(at: point, stderr: pairing.stderr), "\(pairing.stderr)")
            let retry = try await ProcessRunner.runMatterEmu(
                workspace.pairing(port: device.port) + ["--json"], limit: .seconds(180))
            #expect(retry.exitCode == 0, "\(point): \(retry.stderr)")
            let document = try retry.json()
            #expect((document["node"] as? NSNumber)?.intValue == 1, "\(retry.stdout)")
            #expect(document["resumed"] as? Bool == true)
            try await workspace.verify("retry after \(point)", devicePort: device.port)
            await device.stop()
        }
    }

    @Test(
        "the commissioner SIGKILLs itself at a checkpoint; 'pairing resume' settles what it left",
        arguments: CommissioningCheckpoint.allCases)
    func commissionerKilled(at point: CommissioningCheckpoint) async throws {
        try await CrashWorkspace.limit.run {
            let workspace = try CrashWorkspace(node: 1)
            let device = try await workspace.startDevice()
            let pairing = try await ProcessRunner.runMatterEmu(
                workspace.pairing(port: device.port) + ["--json"],
                environment: ["MATTER_EMU_TEST_KILL_AT": point.description], limit: .seconds(60))
            #expect(
                pairing.termination.isTestHookKill(at: point.description, stderr: pairing.stderr),
                "controller \(point): died by SIGKILL at the point (\(String(describing: pairing.termination)))")
            let resume = try await workspace.ctl(["pairing", "resume", "--json"])
            #expect(
                resume.succeeded,
                "controller \(point): restarted, 'pairing resume' settles what it left: \(resume.stdout) \(resume.stderr)"
            )
            try await workspace.verify("controller \(point)", devicePort: device.port)
            await device.stop()
        }
    }

    /// Odd runs kill the device (then restarted), even runs the commissioner (then resumed). The
    /// moment: once the commissioner printed a random number of its stages (a few more may finish
    /// before the kill lands: on loopback a stage takes a few milliseconds); the last run kills the
    /// commissioner right after discovery, most likely in the middle of PASE, which leaves the device
    /// waiting for a dead initiator (it answers others BUSY until its fail-safe expires).
    @Test("kill -9 from outside at a random moment of a commissioning", arguments: 1...6)
    func killedAtRandom(run: Int) async throws {
        try await CrashWorkspace.limit.run {
            let workspace = try CrashWorkspace(node: 1)
            let device = try await workspace.startDevice()
            let pairing = try workspace.startPairing(port: device.port)
            let target = run == 6 ? 1 : Int.random(in: 1...17)
            _ = await eventually(within: .seconds(30), every: .milliseconds(2)) {
                Self.stagesDone(pairing) >= target || pairing.termination != nil
            }
            let label =
                "random kill -9 \(run) (\(run % 2 == 1 ? "device" : "commissioner") killed after \(target) stages)"
            var port = device.port
            if run % 2 == 1 {
                device.process.signal()
                _ = await device.process.exit(within: .seconds(20))
                let restarted = try await workspace.startDevice(port: device.port)
                port = restarted.port
                if await pairing.exit(within: .seconds(90)) == nil { pairing.signal() }
                try await workspace.verify(label, devicePort: port)
                await restarted.stop()
            } else {
                pairing.signal()
                _ = await pairing.exit(within: .seconds(20))
                let resume = try await workspace.ctl(["pairing", "resume", "--json"])
                #expect(resume.succeeded, "\(label): 'pairing resume' runs: \(resume.stderr)")
                try await workspace.verify(label, devicePort: port)
                await device.stop()
            }
        }
    }

    /// The stages the commissioner reported done so far (its progress timeline on stderr: `  ok  <stage>`).
    static func stagesDone(_ pairing: RunningProcess) -> Int {
        pairing.stderr.split(separator: "\n").filter { $0.hasPrefix("  ok") }.count
    }
}
