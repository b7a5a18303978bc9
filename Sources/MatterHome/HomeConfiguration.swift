package import MatterController

extension Home {
    /// Where a ``Home`` keeps its state and how it finds devices.
    public struct Configuration: Sendable {
        /// How devices to commission are found.
        public enum Discovery: Sendable, Hashable {
            /// DNS-SD through the system's Avahi daemon (`_matterc._udp`, `_matter._tcp`).
            case avahi
            /// None: commission only at ``Configuration/commissioningAddress``; reach nodes at the
            /// addresses they last answered on.
            case none
        }

        /// The controller's state directory (its fabric, nodes, rooms and groups in
        /// `controller.sqlite`); the same directory the `matter-emu` CLI uses with `--state-dir`.
        public var stateDirectory: String
        /// A directory of PAA certificates (PEM or DER) that device attestation trusts; nil for the
        /// built-in test PAAs (``DefaultPAATrustStore``).
        public var paaTrustStore: String?
        public var discovery: Discovery
        /// `HOST:PORT` of the device to commission, instead of finding it by DNS-SD (the onboarding
        /// payload still gives the passcode).
        public var commissioningAddress: String?
        /// The local UDP port (0: any free port).
        public var port: UInt16 = 0
        /// The longest silence (seconds) a device may keep on its subscription: a device that said
        /// nothing for this long (plus a margin) is taken as lost and subscribed to again.
        public var subscriptionMaxInterval: UInt16 = 30
        /// How long a lost device subscription waits at most between attempts to come back.
        public var resubscribeLimit: Duration = .seconds(10)
        /// Test hook: adjusts the controller's configuration (in-memory DNS-SD, fast timers).
        package var controllerSettings: (@Sendable (inout ControllerConfiguration) -> Void)?
        /// False: follow a device only once something asks for it (the CLI's one-shot `group parts`
        /// subscribes to the group's members, not to every stored node).
        package var followsEveryDevice = true

        /// A configuration for `stateDirectory` (the CLI's default is `$XDG_STATE_HOME/matter-emu`, else
        /// `~/.local/state/matter-emu`; the library reads no environment variables, so give one).
        public init(stateDirectory: String, paaTrustStore: String? = nil, discovery: Discovery = .avahi) {
            self.stateDirectory = stateDirectory
            self.paaTrustStore = paaTrustStore
            self.discovery = discovery
        }
    }
}
