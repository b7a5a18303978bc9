import Foundation
import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterDiscovery
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Synchronization
import Testing

@testable import MatterHome

/// prepare / commission / complete / cancel, against virtual devices.
@Suite("Home API commissioning lifecycle")
struct CommissioningLifecycleTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    @Test("commissioning without prepare, complete without prepare, and a bad payload are typed errors")
    func misuse() async throws {
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let error = await #expect(throws: HomeError.self) {
            try await structure.commissionMatterDevice(onboardingPayload: "MT:-24J0AFN00KA0648G00")
        }
        #expect(error?.category == .invalidArgument)
        #expect((try? structure.completeMatterCommissioning()) == nil)
        try await structure.prepareForMatterCommissioning()
        let bad = await #expect(throws: HomeError.self) {
            try await structure.commissionMatterDevice(onboardingPayload: "not a code")
        }
        #expect(bad?.category == .invalidArgument)
        #expect(try structure.completeMatterCommissioning() == [])
        await home.close()
    }

    @Test("a second prepare while one is prepared fails, in this home and in another on the same directory")
    func secondPrepare() async throws {
        let first = try await bed.openHome()
        let second = try await bed.openHome()
        let structure = try #require(try await first.structures().list().first)
        let otherStructure = try #require(try await second.structures().list().first)
        try await structure.prepareForMatterCommissioning()
        let again = await #expect(throws: HomeError.self) { try await structure.prepareForMatterCommissioning() }
        #expect(again?.category == .commissioning)
        let other = await #expect(throws: HomeError.self) { try await otherStructure.prepareForMatterCommissioning() }
        #expect(other?.category == .commissioning)
        #expect(other?.message.contains("another commissioning is in progress") == true)
        _ = try structure.completeMatterCommissioning()
        try await otherStructure.prepareForMatterCommissioning()
        otherStructure.cancelMatterCommissioning()
        await first.close()
        await second.close()
    }

    @Test(
        "another process holding the commissioning lock: prepare is a typed error; ours blocks theirs",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func secondPrepareFromAnotherProcess() async throws {
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let lockPath = ControllerStateDirectory.storePath(in: bed.stateDirectory) + ".home-commissioning.lock"
        // Another process takes the lock the way a second Home would (flock on its own open of the
        // file) and holds it: one process, the shell that becomes `sleep`, so terminating it frees it.
        let holder = try RunningProcess([
            "/bin/sh", "-c", "exec 9>>\"$0\"; /usr/bin/flock -x -n 9 || exit 1; echo locked; exec sleep 60", lockPath,
        ])
        let line = await holder.stdoutLine(within: .seconds(30)) { _ in true }
        #expect(line == "locked", "\(holder.stderr)")
        let error = await #expect(throws: HomeError.self) { try await structure.prepareForMatterCommissioning() }
        #expect(error?.category == .commissioning)
        #expect(error?.message.contains("another commissioning is in progress on this state directory") == true)
        await holder.stop()
        // Prepared here: another process cannot take the lock.
        try await structure.prepareForMatterCommissioning()
        let probe = try await ProcessRunner.run(["/usr/bin/flock", "-x", "-n", lockPath, "true"], limit: .seconds(60))
        #expect(probe.exitCode != 0)
        #expect(try structure.completeMatterCommissioning() == [])
        await home.close()
    }

    @Test(
        "a child process that inherited the lock's descriptor does not hold the state directory after complete or cancel",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func inheritedLockDescriptor() async throws {
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let lockPath = ControllerStateDirectory.storePath(in: bed.stateDirectory) + ".home-commissioning.lock"
        // A process spawned while the home is prepared shares the lock's open file description until it
        // execs (O_CLOEXEC); here the child keeps it for its life (`sleep`), so the window is held open.
        try await structure.prepareForMatterCommissioning()
        let descriptor = try #require(OpenDescriptors.on(lockPath).first)
        let completedHolder = try RunningProcess(["/bin/sleep", "60"], inheriting: [descriptor])
        #expect(try structure.completeMatterCommissioning() == [])
        // The next prepare of this home is not refused ("process unknown") by the child's copy.
        try await structure.prepareForMatterCommissioning()
        let cancelledDescriptor = try #require(OpenDescriptors.on(lockPath).first)
        let cancelledHolder = try RunningProcess(["/bin/sleep", "60"], inheriting: [cancelledDescriptor])
        structure.cancelMatterCommissioning()
        try await structure.prepareForMatterCommissioning()
        #expect(try structure.completeMatterCommissioning() == [])
        // Nor is another process's lock, while both children still run.
        #expect(completedHolder.isRunning && cancelledHolder.isRunning)
        let probe = try await ProcessRunner.run(["/usr/bin/flock", "-x", "-n", lockPath, "true"], limit: .seconds(60))
        #expect(probe.exitCode == 0, "\(probe)")
        await completedHolder.stop()
        await cancelledHolder.stop()
        await home.close()
    }

    @Test(
        "a symbolic link or a hard link at the commissioning lock: prepare is a storage error, the other file untouched"
    )
    func lockFileThroughALink() async throws {
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let lockPath = ControllerStateDirectory.storePath(in: bed.stateDirectory) + ".home-commissioning.lock"
        let elsewhere = try TemporaryDirectory()
        let victim = try elsewhere.victim("victim.txt")
        let before = try FileSnapshot(victim)
        for makeLink in [
            { try FileManager.default.createSymbolicLink(atPath: lockPath, withDestinationPath: victim) },
            { try FileManager.default.linkItem(atPath: victim, toPath: lockPath) },
        ] {
            try makeLink()
            let error = await #expect(throws: HomeError.self) { try await structure.prepareForMatterCommissioning() }
            #expect(error?.category == .storage)
            #expect(error?.message.contains(lockPath) == true, "\(String(describing: error))")
            try FileManager.default.removeItem(atPath: lockPath)
        }
        #expect(try FileSnapshot(victim) == before)
        try await structure.prepareForMatterCommissioning()
        #expect(try structure.completeMatterCommissioning() == [])
        await home.close()
    }

    @Test("matter-emu pairing in another process and a prepared home exclude each other, with typed errors")
    func cliPairingExcludesPrepare() async throws {
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        // A socket where nothing answers: the CLI's PASE waits on it (MRP retransmissions).
        let silent = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.silent"))
        func pairing() throws -> RunningProcess {
            try RunningProcess([
                ProcessRunner.matterEmu.path, "pairing", "already-discovered", "9", "20202021", "127.0.0.1",
                String(silent.port), "--state-dir", bed.stateDirectory,
            ])
        }

        // Prepared here: the CLI refuses to commission on this state directory (exit 6).
        try await structure.prepareForMatterCommissioning()
        let refused = try pairing()
        let refusal = await refused.exit(within: .seconds(120))
        let message = refused.stderr
        #expect(refusal?.exitCode == 6, "\(message)")
        #expect(message.contains("a Home API commissioning session holds this state directory (process \(getpid()))"))
        #expect(try structure.completeMatterCommissioning() == [])

        // The CLI commissioning (stuck in PASE): prepare is a typed error until it ends.
        let running = try pairing()
        var refusedPrepare: HomeError?
        for _ in 0..<100 where refusedPrepare == nil && running.isRunning {
            do throws(HomeError) {
                try await structure.prepareForMatterCommissioning()
                _ = try structure.completeMatterCommissioning()
                try? await Task.sleep(for: .milliseconds(50))
            } catch {
                refusedPrepare = error
            }
        }
        await running.stop()
        #expect(refusedPrepare?.category == .commissioning)
        #expect(refusedPrepare?.message.contains("another commissioning is in progress") == true)
        try await structure.prepareForMatterCommissioning()
        _ = try structure.completeMatterCommissioning()
        silent.queue.sync { silent.close() }
        await home.close()
    }

    @Test("prepare without discovery and without a commissioning address is a discovery error")
    func noDiscovery() async throws {
        let home = try await Home.open(
            configuration: Home.Configuration(stateDirectory: bed.stateDirectory, discovery: .none))
        let structure = try #require(try await home.structures().list().first)
        let error = await #expect(throws: HomeError.self) { try await structure.prepareForMatterCommissioning() }
        #expect(error?.category == .discovery)
        await home.close()
    }

    @Test(
        "cancel at each stage: the caller gets cancelled; nothing stays on the device or in the store",
        arguments: CommissioningStage.allCases)
    func cancelAtStage(_ stage: CommissioningStage) async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 401)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        try await structure.prepareForMatterCommissioning()
        // Cancel from the progress callback, which runs on the controller as the stage starts. A
        // consumer of `commissioningUpdates` gets the updates later, on its own task: its cancel can
        // come after the last stage has finished, and then the commissioning stands (1 run in 20).
        let started = Mutex<[String]>([])
        var failure: (any Error)?
        do {
            _ = try await structure.commission(lamp.qrCode) { update in
                guard case .stageStarted(let name) = update else { return }
                started.withLock { $0.append(name) }
                if name == stage.name { structure.cancelMatterCommissioning() }
            }
        } catch {
            failure = error
        }
        #expect(started.withLock { $0.contains(stage.name) })
        #expect((failure as? HomeError)?.category == .cancelled)
        // The next prepare waits for the clean-up.
        try await structure.prepareForMatterCommissioning()
        #expect(try structure.completeMatterCommissioning() == [])
        #expect(await lamp.fabrics().isEmpty)
        #expect(await lamp.isCommissionable())
        #expect(try await home.devices().byID().isEmpty)
        let store = try ControllerStore(path: ControllerStateDirectory.storePath(in: bed.stateDirectory))
        #expect(try store.nodes().isEmpty)
        #expect(try Controller.interruptedCommissionings(in: store).isEmpty)
        // The device can be commissioned again.
        let ids = try await commission([lamp], in: structure)
        #expect(await lamp.fabrics().map { String($0.nodeID.rawValue) } == ids)
        await home.close()
        await lamp.stop()
    }

    @Test("a cancel that comes after the commissioning finished ends the session; the device stays")
    func cancelAfterFinish() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 403)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        try await structure.prepareForMatterCommissioning()
        let id = try await structure.commissionMatterDevice(onboardingPayload: lamp.qrCode)
        structure.cancelMatterCommissioning()
        #expect(await lamp.fabrics().count == 1)
        #expect(try await home.devices().byID().map(\.id) == [id])
        // The session ended: complete has nothing to end, and a new prepare does not wait.
        #expect(throws: HomeError.self) { try structure.completeMatterCommissioning() }
        try await structure.prepareForMatterCommissioning()
        #expect(try structure.completeMatterCommissioning() == [])
        await home.close()
        await lamp.stop()
    }

    @Test("cancelling the task that iterates the updates cancels the commissioning")
    func taskCancellation() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 402)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        try await structure.prepareForMatterCommissioning()
        // Leaving the loop early ends the sequence, which cancels its task.
        for try await update in structure.commissioningUpdates(onboardingPayload: lamp.qrCode) {
            if case .stageSucceeded("pase", _) = update { break }
        }
        try await structure.prepareForMatterCommissioning()
        #expect(try structure.completeMatterCommissioning() == [])
        #expect(await lamp.fabrics().isEmpty)
        #expect(try await home.devices().byID().isEmpty)
        await home.close()
        await lamp.stop()
    }
}

/// The controller's stop check, seen from the controller: a commissioning whose task is cancelled
/// while a stage runs stops before the next one starts, and undoes what it did on the device.
@Suite("Commissioning stop check")
struct CommissioningStopTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    @Test(
        "cancelled during a stage: no later stage starts, nothing stays",
        arguments: [CommissioningStage.pase, .armFailSafe, .csrRequest, .addNOC, .caseSession, .commissioningComplete])
    func stopsBeforeTheNextStage(_ stage: CommissioningStage) async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 701)
        let controller = try await bed.otherController()
        var request = CommissioningRequest(payload: lamp.setupPayload)
        request.locator = .address(try DirectAddress(parsing: "127.0.0.1:\(lamp.port)"))
        let started = Mutex<[CommissioningStage]>([])
        let outcome = await Task { [request] () async -> ControllerError? in
            do throws(ControllerError) {
                _ = try await controller.commission(request) { event in
                    guard case .started = event.outcome else { return }
                    started.withLock { $0.append(event.stage) }
                    // The progress handler runs inside the commissioning's task: cancel it here.
                    if event.stage == stage { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return nil
            } catch {
                return error
            }
        }.value
        let error = try #require(outcome)
        #expect(error.isCancellation, "\(error)")
        let stages = CommissioningStage.allCases
        let index = try #require(stages.firstIndex(of: stage))
        #expect(started.withLock { $0.last } == stage)
        if case .commissioning(let failed, _) = error {
            #expect(failed == stages[index + 1] || failed == stage)
        } else {
            Issue.record("not wrapped in its stage: \(error)")
        }
        #expect(await lamp.fabrics().isEmpty)
        #expect(await lamp.isCommissionable())
        #expect(try controller.store.nodes().isEmpty)
        #expect(try Controller.interruptedCommissionings(in: controller.store).isEmpty)
        await controller.stop()
        await lamp.stop()
    }
}
