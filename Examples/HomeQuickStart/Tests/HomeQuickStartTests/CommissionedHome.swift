import Foundation
import HomeQuickStartSamples
import MatterHome
import Testing

/// The quick start's four devices, commissioned by the commissioning sample into one home, which is
/// open: what every device-control sample runs on. Made once for the suite by ``Scope`` and read
/// through ``required()``.
struct CommissionedHome: Sendable {
    let quickStart: QuickStart
    let home: Home
    let structure: Structure

    @TaskLocal static var current: CommissionedHome?

    /// The suite's commissioned home; throws outside a suite with the ``Scope`` trait.
    static func required() throws -> CommissionedHome {
        try #require(current, "the suite has no commissioned home (add the CommissionedHome.Scope trait)")
    }

    /// The commissioned device named `name`.
    func device(_ name: String) async throws -> HomeDevice {
        let devices = try await structure.devices().list()
        return try #require(devices.first { $0.name == name }, "no device \(name) in \(devices.map(\.name))")
    }

    /// Device type `type` of the device named `name` (its live traits).
    func type<T: DeviceType>(_ type: T.Type, of name: String) async throws -> T {
        try #require(await device(name).types.get(type), "\(name) is no \(type)")
    }

    /// A suite trait: starts the devices under a new temporary directory, commissions them with the
    /// commissioning sample, opens the home for the suite's tests, then closes it, stops the devices and
    /// removes the directory.
    struct Scope: SuiteTrait, TestScoping {
        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let directory = NSTemporaryDirectory() + "home-quick-start-tests-\(UInt64.random(in: 0...UInt64.max))"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let quickStart = try await QuickStart.start(stateDirectory: directory)
            do {
                try await quickStart.commissionAll()
                let home = try await quickStart.openHome()
                do {
                    guard let structure = try await home.structures().list().first else {
                        throw QuickStartError.noStructure
                    }
                    let commissioned = CommissionedHome(quickStart: quickStart, home: home, structure: structure)
                    try await $current.withValue(commissioned) { try await function() }
                } catch {
                    await home.close()
                    throw error
                }
                await home.close()
            } catch {
                await quickStart.stop()
                throw error
            }
            await quickStart.stop()
        }
    }
}

extension Testing.Trait where Self == CommissionedHome.Scope {
    /// The suite's tests run on the quick start's devices, commissioned into one open home.
    static var commissionedHome: Self { Self() }
}
