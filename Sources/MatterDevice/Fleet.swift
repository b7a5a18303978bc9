import Foundation
import MatterCore
import MatterCredentials
import MatterCrypto
public import MatterDataModel
public import MatterDiscovery
import MatterOnboarding
import MatterStorage
import MatterTransport

/// Many virtual devices in one process: each with its own UDP port, discriminator, passcode, DAC and
/// namespace in one shared state file; ports, discriminators and passcodes are allocated so that no
/// two devices of the fleet collide.
public final class Fleet: Sendable {
    /// One kind of device in the fleet.
    public struct Group: Sendable {
        public var type: String
        public var count: Int
        public var namePrefix: String?
        /// Scripts every device of the group starts with (after the fleet's own).
        public var scripts: [ScriptAssignment] = []
        /// Twins of one recorded device instead of devices of `type` (`"dump"` in `--config`).
        public var twin: NodeTwin?
        public init(type: String, count: Int, namePrefix: String? = nil) {
            self.type = type
            self.count = count
            self.namePrefix = namePrefix
        }
    }

    public struct Configuration: Sendable {
        public var groups: [Group]
        public var storagePath: String
        public var pkiDirectory: String
        /// First UDP port; device i gets basePort + i (0: every device picks a free port).
        public var basePort: UInt16 = 5540
        /// First discriminator; see ``Fleet/discriminator(ofDevice:base:)`` for the others.
        public var baseDiscriminator: UInt16 = 3840
        /// Seed of the passcodes (the same seed gives the same codes).
        public var passcodeSeed: UInt64 = 20_202_021
        /// Scripts every device starts with (`--script`); a device that cannot run one stops the start.
        public var scripts: [ScriptAssignment] = []
        /// `--time-scale` of every device.
        public var timeScale: Double = 1
        public var pbkdfIterations: UInt32 = 1000
        public var advertise = true
        /// Raw records (default) or probed Avahi services, for the fleet's one Avahi client.
        public var dnssdPublishing = DNSSDPublishing.rawRecords
        /// Which mDNS implementation the fleet's one DNS-SD client is (`--mdns`; see `MDNSBackend`).
        public var mdns = MDNSBackend.avahi
        public var factoryReset = false
        /// A sharded fleet: this process runs shard ``shard`` of `layout`, whose identities replace the
        /// base port, base discriminator and passcode seed above (nil: the fleet stands alone).
        public var layout: FleetLayout?
        /// This process's shard of ``layout`` (0 ..< layout.shards).
        public var shard = 0
        public init(groups: [Group], storagePath: String, pkiDirectory: String) {
            self.groups = groups
            self.storagePath = storagePath
            self.pkiDirectory = pkiDirectory
        }
    }

    /// The fleet's devices, each restartable through the control plane (index order).
    public let hosts: [DeviceHost]

    /// The devices running now, in index order (a restarted device is a new object).
    public var devices: [VirtualDevice] { hosts.map(\.device) }

    init(hosts: [DeviceHost]) { self.hosts = hosts }

    /// The discriminator of device `index`: device `16q + r` gets `(base + 256 r + q) mod 4096`.
    ///
    /// A manual code carries only the upper 4 bits of the discriminator (the short discriminator), so
    /// devices 0...15 differ in those bits and each manual code of them finds one device; from device
    /// 16 on the short discriminators repeat (each group of 16 shifted by one), and every one of the
    /// first 4096 devices still has its own long discriminator (the QR code's).
    public static func discriminator(ofDevice index: Int, base: UInt16) -> UInt16 {
        let offset = 256 * (index % 16) + index / 16
        return UInt16((Int(base) + offset) % 4096)
    }

    /// File descriptors the process keeps beside its devices' sockets: standard streams, the state
    /// file (SQLite's database, WAL and shared-memory files, the lock file), the Avahi client's
    /// D-Bus connection, libdispatch's epoll and event descriptors, the control socket and its
    /// connections, the app pipe, and files read while running.
    public static let descriptorReserve = 64

    /// The open file descriptors a fleet with groups of `counts` devices needs: one UDP socket per
    /// device, and ``descriptorReserve`` more (saturating, so an absurd count is refused, not wrapped).
    public static func descriptorsNeeded(devices counts: [Int]) -> Int {
        var total = descriptorReserve
        for count in counts {
            let (sum, overflow) = total.addingReportingOverflow(max(0, count))
            total = overflow ? Int.max : sum
        }
        return total
    }

    /// Starts every device; stops those already started if one fails.
    ///
    /// First makes room for every device's socket: raises the soft `RLIMIT_NOFILE` limit to the hard
    /// one, or throws ``DeviceError/descriptorLimit(_:)`` before anything starts when the hard limit
    /// is below ``descriptorsNeeded(devices:)``.
    public static func start(_ configuration: Configuration, dnssd: (any DNSSDAdvertiser)? = nil)
        async throws(DeviceError) -> Fleet
    {
        // Every name checked before any device starts: the longest member number makes the longest label.
        for (index, group) in configuration.groups.enumerated() {
            guard let prefix = group.namePrefix else { continue }
            let longest = "\(prefix) \(group.count)"
            if let problem = BasicInformationServer.nodeLabelProblem(longest) {
                throw .invalidConfiguration("group \(index) \"name\": the label \"\(longest)\" \(problem)")
            }
        }
        do {
            try DescriptorLimit.ensure(room: descriptorsNeeded(devices: configuration.groups.map(\.count)))
        } catch {
            throw .descriptorLimit(error)
        }
        let authority = try loadAuthority(configuration.pkiDirectory)
        let cdKey: P256PrivateKey
        do {
            cdKey = try PEM.privateKey(
                try String(
                    contentsOfFile: configuration.pkiDirectory + "/cd-signing-key.pem",
                    encoding: .utf8))
        } catch {
            throw .attestation("cannot read the CD signing key in \(configuration.pkiDirectory): \(error)")
        }
        // One Avahi client for the whole fleet.
        var shared = dnssd
        if configuration.advertise, shared == nil {
            do {
                let publishing = configuration.dnssdPublishing
                shared = try await configuration.mdns.start(label: "matter-emu.fleet", publishing: publishing)
            } catch {
                Logger(label: "fleet").warning("\(error); the fleet is reachable by direct address only")
            }
        }
        // One connection to the state file for every device (claimed first, as each device does).
        let store: KeyValueStore
        let ownership: StoreOwnership
        do {
            ownership = try StoreOwnership.claim(path: configuration.storagePath, holder: "matter-emu fleet")
            store = try KeyValueStore(path: configuration.storagePath)
        } catch {
            throw .storage("\(error)")
        }
        defer { ownership.release() }  // each device holds its own claim from here on
        var random = SeededRandom(seed: configuration.passcodeSeed)
        let identities = try shardIdentities(configuration)
        var members: [Member] = []
        for group in configuration.groups {
            let source = try DeviceSource(type: group.type, twin: group.twin)
            for member in 0..<group.count {
                let index = members.count
                var device = VirtualDeviceConfiguration(
                    deviceType: group.type, storagePath: configuration.storagePath,
                    pkiDirectory: configuration.pkiDirectory)
                device.storageNamespace = "fleet/\(index)"
                device.sharedStore = store
                device.port = configuration.basePort == 0 ? 0 : configuration.basePort &+ UInt16(index)
                device.discriminator = Self.discriminator(ofDevice: index, base: configuration.baseDiscriminator)
                device.passcode = SetupPasscode.random(using: &random)
                device.pbkdfIterations = configuration.pbkdfIterations
                device.name = group.namePrefix.map { "\($0) \(member + 1)" }
                device.advertise = shared != nil
                device.factoryReset = configuration.factoryReset
                device.scripts = configuration.scripts + group.scripts
                device.timeScale = configuration.timeScale
                device.twin = group.twin
                let identity = identities?[index]
                if let identity {
                    device.port = identity.port
                    device.discriminator = identity.discriminator
                    device.passcode = identity.passcode
                    device.serialNumber = identity.serialNumber
                    device.uniqueID = identity.uniqueID
                }
                members.append(Member(configuration: device, source: source, identity: identity))
            }
        }
        return Fleet(hosts: try await startAll(members, authority: authority, cdKey: cdKey, dnssd: shared))
    }

    /// One device to start: its configuration, what it is made of and (in a sharded fleet) derived identity.
    private struct Member: Sendable {
        let configuration: VirtualDeviceConfiguration
        let source: DeviceSource
        let identity: FleetIdentity?
    }

    /// The identities of this process's shard, nil for a fleet without a layout; checks that the
    /// groups hold as many devices as the layout's shards do.
    private static func shardIdentities(_ configuration: Configuration) throws(DeviceError) -> [FleetIdentity]? {
        guard let layout = configuration.layout else { return nil }
        let total = configuration.groups.reduce(0) { $0 + $1.count }
        guard total == layout.countPerShard else {
            throw .invalidConfiguration(
                "the groups hold \(total) devices, the layout's shards \(layout.countPerShard) each")
        }
        return try layout.identities(shard: configuration.shard)
    }

    /// Starts `members` a few at a time (their DAC issued, their PASE verifier derived, their
    /// socket bound: CPU work that two cores share), in index order in the result; stops every
    /// started device when one fails.
    private static func startAll(
        _ members: [Member],
        authority: TestAttestationAuthority, cdKey: P256PrivateKey, dnssd: (any DNSSDAdvertiser)?
    ) async throws(DeviceError) -> [DeviceHost] {
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount * 2)
        let results = await withTaskGroup(of: (Int, Result<DeviceHost, DeviceError>).self) { group in
            var results: [Int: Result<DeviceHost, DeviceError>] = [:]
            var next = 0
            var failed = false
            while true {
                while !failed, next < members.count, next - results.count < width {
                    let index = next
                    let member = members[index]
                    group.addTask {
                        await (
                            index,
                            start(member, index: index, authority: authority, cdKey: cdKey, dnssd: dnssd)
                        )
                    }
                    next += 1
                }
                guard let (index, result) = await group.next() else { break }
                results[index] = result
                if case .failure = result { failed = true }
            }
            return results
        }
        var hosts: [DeviceHost] = []
        var failure: DeviceError?
        for index in 0..<members.count {
            switch results[index] {
            case .success(let host)?: hosts.append(host)
            case .failure(let error)?: failure = failure ?? error
            case nil: break
            }
        }
        if let failure {
            for started in hosts { await started.stop() }
            throw failure
        }
        return hosts
    }

    /// Starts fleet device `index` with a DAC of its own.
    private static func start(
        _ member: Member, index: Int, authority: TestAttestationAuthority, cdKey: P256PrivateKey,
        dnssd: (any DNSSDAdvertiser)?
    ) async -> Result<DeviceHost, DeviceError> {
        var device = member.configuration
        do throws(DeviceError) {
            switch member.source {
            case .twin(let twin):
                device.attestation = try VirtualDevice.twinAttestation(for: twin, pkiDirectory: device.pkiDirectory)
            case .preset(let preset):
                device.attestation = try issue(
                    index, preset, identity: member.identity, authority: authority, cdKey: cdKey)
            }
            return .success(try await DeviceHost.start(device, dnssd: dnssd))
        } catch {
            return .failure(error)
        }
    }

    /// The DAC of fleet device `index`, issued by the test PAI (with the key and serial number of its
    /// derived identity in a sharded fleet, a random key otherwise).
    private static func issue(
        _ index: Int, _ preset: DevicePreset, identity: FleetIdentity?, authority: TestAttestationAuthority,
        cdKey: P256PrivateKey
    ) throws(DeviceError) -> DeviceAttestationCredentials {
        do {
            let name = identity.map { "Matter Emulator Fleet DAC \($0.shard)-\($0.index)" }
            return try authority.issueDevice(
                productID: preset.productID, deviceTypeID: preset.deviceType.id.rawValue,
                commonName: name ?? "Matter Emulator Fleet DAC \(index)", certificationDeclarationKey: cdKey,
                dacKey: try identity?.dacPrivateKey(), dacSerialNumber: identity?.dacSerialNumber)
        } catch {
            throw .attestation("issuing the DAC of fleet device \(index): \(error)")
        }
    }

    public func stop() async {
        for host in hosts { await host.stop() }
    }

    static func loadAuthority(_ directory: String) throws(DeviceError) -> TestAttestationAuthority {
        do {
            func read(_ name: String) throws -> String {
                try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            }
            guard let paiDER = FileManager.default.contents(atPath: directory + "/pai-cert.der") else {
                throw DeviceError.attestation("missing pai-cert.der")
            }
            return try TestAttestationAuthority(
                paa: try AttestationCertificate(der: try PEM.decode(try read("paa-cert.pem"), label: "CERTIFICATE")),
                paaKey: try PEM.privateKey(try read("paa-key.pem")),
                pai: try AttestationCertificate(der: [UInt8](paiDER)),
                paiKey: try PEM.privateKey(try read("pai-key.pem")))
        } catch {
            throw .attestation("cannot load the test PKI in \(directory): \(error)")
        }
    }
}
