import Foundation
import MatterDiscovery
import MatterTestSupport
import Testing

@Suite("Avahi backend without a daemon")
struct AvahiNoDaemonTests {
    /// In a namespace without a system D-Bus (this machine's root namespace) starting the backend
    /// must fail at once with the typed error; where a bus exists the call must still return.
    @Test func startFailsCleanlyWithoutADaemon() async throws {
        let hasSystemBus = FileManager.default.fileExists(atPath: "/run/dbus/system_bus_socket")
        do {
            let dnssd = try await AvahiDNSSD.start()
            #expect(hasSystemBus, "Avahi answered although there is no system D-Bus")
            await dnssd.stop()
            await dnssd.stop()  // idempotent
            await #expect(throws: DiscoveryError.stopped) {
                try await dnssd.publish(OperationalAdvertisementTests.node)
            }
        } catch {
            guard case .daemonUnavailable = error else {
                Issue.record("expected .daemonUnavailable, got \(error)")
                return
            }
            #expect(
                error.description == "no Avahi daemon reachable (is avahi-daemon running?); use --address HOST:PORT")
        }
    }

    @Test func errorMessagesAreOneLine() {
        let errors: [DiscoveryError] = [
            .daemonUnavailable(detail: "Daemon not running"),
            .avahi(operation: "browse", code: -8, message: "Name collision"),
            .invalidRecord("x"), .malformedRecord("x"), .invalidAddress("x"), .notFound("x"), .timedOut("x"),
            .unknownPublication, .stopped, .cancelled,
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(!error.description.contains("\n"))
        }
        #expect(
            DiscoveryError.avahi(operation: "browse", code: -8, message: "Name collision").description
                == "Avahi browse failed: Name collision (error -8)")
    }
}
