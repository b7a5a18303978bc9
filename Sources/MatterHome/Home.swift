import Dispatch
import MatterController
import MatterCore
import MatterCredentials
import MatterDiscovery
import MatterStorage
import MatterTransport
import Synchronization

/// The Google Home API's entry point, for one controller state directory: one fabric, one
/// ``Structure``, its rooms, devices and device groups. Devices are controlled through their device
/// types and traits (`device.types.get(DimmableLightDeviceType.self)?.matterTraits.levelControlTrait`).
///
/// While open, a home keeps one subscription per commissioned device, so trait attributes hold the
/// device's current values. Several homes (in one process or many) may share a state directory; only
/// one of them commissions at a time. Call ``close()`` when done.
public final class Home: Sendable {
    let context: HomeContext

    private init(context: HomeContext) { self.context = context }

    private static let defaults = Mutex<Configuration?>(nil)

    /// Sets the configuration that ``open(configuration:)`` uses when given none (the Home API's
    /// `Home.configure { $0.sharedAppGroup = ... }`; here the settings are a state directory and a
    /// trust store). Starts from the last one set, else from one without a state directory.
    public static func configure(_ body: (inout Configuration) -> Void) {
        var configuration = defaults.withLock { $0 } ?? Configuration(stateDirectory: "")
        body(&configuration)
        defaults.withLock { [configuration] in $0 = configuration }
    }

    /// Opens the state directory (creating its fabric on first use), binds a UDP socket and starts
    /// following every commissioned device. Without `configuration`, the one ``configure(_:)`` set.
    /// - Throws: `invalidArgument` without a state directory; `storage` when its store cannot be opened.
    public static func open(configuration: Configuration? = nil) async throws(HomeError) -> Home {
        guard let configuration = configuration ?? defaults.withLock({ $0 }), !configuration.stateDirectory.isEmpty
        else {
            throw .invalid(
                "no state directory: set Home.Configuration.stateDirectory (Home.configure { $0.stateDirectory = ... })"
            )
        }
        let storePath = ControllerStateDirectory.storePath(in: configuration.stateDirectory)
        let store: ControllerStore
        let records: KeyValueStore
        do {
            store = try ControllerStore(path: storePath)
            records = try KeyValueStore(database: store.database)
        } catch {
            throw HomeError(.storage, "cannot open \(storePath): \(error)")
        }
        let address: DirectAddress?
        if let text = configuration.commissioningAddress {
            do { address = try DirectAddress(parsing: text) } catch {
                throw .invalid("commissioning address \"\(text)\": \(error)")
            }
        } else {
            address = nil
        }
        let trust: PAATrustStore
        do {
            if let directory = configuration.paaTrustStore {
                trust = try DefaultPAATrustStore.load(directory: directory)
            } else {
                trust = try DefaultPAATrustStore.make()
            }
        } catch {
            throw HomeError(
                .invalidArgument, "PAA trust store \(configuration.paaTrustStore ?? "(built in)"): \(error)")
        }
        let endpoint: UDPEndpoint
        do {
            endpoint = try UDPEndpoint(port: configuration.port, queue: DispatchQueue(label: "matter-home.controller"))
        } catch {
            throw HomeError(.internalFailure, "cannot open a UDP socket on port \(configuration.port): \(error)")
        }
        var controllerConfiguration = ControllerConfiguration(
            store: store, transport: endpoint, discovery: configuration.discovery == .avahi ? .avahi : .none,
            trustStore: trust)
        configuration.controllerSettings?(&controllerConfiguration)
        let canDiscover: Bool =
            switch controllerConfiguration.discovery {
            case .none: false
            case .avahi, .browser, .mdns: true
            }
        let controller: Controller
        do { controller = try await Controller.open(controllerConfiguration) } catch { throw HomeError(error) }
        let context = HomeContext(
            controller: controller, records: records, stateDirectory: configuration.stateDirectory,
            commissioningAddress: address, canDiscover: canDiscover,
            usesAvahi: configuration.discovery == .avahi && canDiscover, retryLimit: configuration.resubscribeLimit,
            maxInterval: max(1, configuration.subscriptionMaxInterval))
        do {
            if configuration.followsEveryDevice {
                for node in try store.nodes() { _ = context.liveDevice(node.nodeID) }
            }
        } catch {
            await context.close()
            throw HomeError(error)
        }
        return Home(context: context)
    }

    /// The home's structures: one per state directory.
    public func structures() -> Query<Structure> {
        let context = self.context
        return Query(home: context) { () throws(HomeError) in [try Structure(home: context)] }
    }

    /// Every commissioned device.
    public func devices() -> Query<HomeDevice> {
        let context = self.context
        return Query(home: context) { () throws(HomeError) in Set(try context.nodes().map(context.device)) }
    }

    /// Every room of every structure.
    public func rooms() -> Query<Room> {
        let context = self.context
        return Query(home: context) { () throws(HomeError) in Set(try context.rooms.rooms()) }
    }

    /// Ends the subscriptions, cancels a commissioning in flight and closes the socket.
    public func close() async { await context.close() }
}
