// swift-tools-version:6.1
// matter-emu: Matter accessories and a Matter commissioner, emulated over UDP on Linux.
// Module layout and layering: see docs/ARCHITECTURE.md (a module imports only modules listed before it).
import PackageDescription

let package = Package(
    name: "MatterEmulator",
    products: [
        .executable(name: "matter-emu", targets: ["MatterEmuCLI"]),
        .executable(name: "matter-emu-bench", targets: ["MatterBench"]),
        .library(name: "MatterHome", targets: ["MatterHome"]),
        .library(name: "MatterDevice", targets: ["MatterDevice"]),
        .library(name: "MatterController", targets: ["MatterController"]),
        .library(name: "MatterClusters", targets: ["MatterClusters"]),
        .library(name: "MatterOnboarding", targets: ["MatterOnboarding"]),
        .library(name: "MatterTLV", targets: ["MatterTLV"]),
        .library(name: "MatterCrypto", targets: ["MatterCrypto"]),
    ],
    targets: [
        // System-library shims: a module map and a header of `static inline` wrappers, nothing else.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CAvahi", providers: [.apt(["libavahi-client-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CQREncode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // Small C target for the socket macros Swift cannot import (CMSG_*, in6_pktinfo).
        .target(name: "CMatterPOSIX"),

        .target(name: "MatterCore"),
        .target(name: "MatterTLV", dependencies: ["MatterCore"]),
        .target(name: "MatterCrypto", dependencies: ["MatterCore", "COpenSSL"]),
        .target(name: "MatterOnboarding", dependencies: ["MatterCore", "MatterTLV"]),
        .target(name: "MatterDiscovery", dependencies: ["MatterCore", "CAvahi", "CMatterPOSIX"]),
        .target(name: "MatterStorage", dependencies: ["MatterCore", "CSQLite"]),
        // An HTTP server (libmicrohttpd) with its access policy and event streams, for `--http`.
        .target(name: "MatterHTTP", dependencies: ["MatterCore", "CMicroHTTPD"]),
        .target(name: "MatterClusters", dependencies: ["MatterCore", "MatterTLV"]),
        .target(name: "MatterCredentials", dependencies: ["MatterCore", "MatterTLV", "MatterCrypto", "COpenSSL"]),
        .target(name: "MatterTransport", dependencies: ["MatterCore", "MatterTLV", "MatterCrypto", "CMatterPOSIX"]),
        .target(
            name: "MatterSecureChannel",
            dependencies: ["MatterCore", "MatterTLV", "MatterCrypto", "MatterCredentials", "MatterTransport"]),
        .target(
            name: "MatterInteraction", dependencies: ["MatterCore", "MatterTLV", "MatterTransport", "MatterClusters"]),
        .target(
            name: "MatterDataModel",
            dependencies: ["MatterCore", "MatterTLV", "MatterClusters", "MatterInteraction", "MatterTransport"]),

        // The data-model generator: model/matter-VERSION.json -> Sources/MatterClusters/Generated
        // (scripts/model/generate.sh). Foundation only; not part of the product.
        .executableTarget(name: "matter-model-gen", path: "Sources/MatterModelGen"),

        // Test tool for scripts/test-network.sh: publishes and browses through MatterDiscovery.
        .executableTarget(
            name: "matter-dnssd-probe", dependencies: ["MatterCore", "MatterDiscovery"],
            path: "Sources/MatterDNSSDProbe"
        ),
        .target(
            name: "MatterDevice",
            dependencies: [
                "MatterCore", "MatterTLV", "MatterCrypto", "MatterStorage", "MatterClusters",
                "MatterCredentials", "MatterTransport", "MatterSecureChannel", "MatterInteraction",
                "MatterDataModel", "MatterDiscovery", "MatterOnboarding", "CMatterPOSIX",
            ]
        ),
        .target(
            name: "MatterController",
            dependencies: [
                "MatterCore", "MatterTLV", "MatterCrypto", "MatterStorage", "MatterClusters",
                "MatterCredentials", "MatterTransport", "MatterSecureChannel", "MatterInteraction",
                "MatterDiscovery", "MatterOnboarding",
            ]
        ),
        // The Google Home API's object model (Home, structures, rooms, devices, traits) over the controller.
        .target(
            name: "MatterHome",
            dependencies: [
                "MatterCore", "MatterTLV", "MatterClusters", "MatterStorage", "MatterDiscovery",
                "MatterInteraction", "MatterOnboarding", "MatterCredentials", "MatterTransport",
                "MatterController",
            ]
        ),

        .executableTarget(
            name: "MatterEmuCLI",
            dependencies: [
                "MatterCore", "MatterTLV", "MatterOnboarding", "MatterDiscovery", "MatterClusters",
                "MatterStorage", "MatterCredentials", "MatterTransport", "MatterInteraction",
                "MatterDevice", "MatterController", "MatterHome", "MatterHTTP", "CQREncode",
            ]
        ),

        // Test tool for scripts/test-hostile.sh: floods a device with random, mutated and replayed
        // datagrams and half-open PASE attempts (docs/RELIABILITY.md); not part of the product.
        .executableTarget(
            name: "matter-emu-hostile",
            dependencies: ["MatterCore", "MatterTLV", "MatterCrypto", "MatterTransport"],
            path: "Sources/MatterHostilePeer"
        ),

        // Measurements for docs/BENCHMARKS.md (scripts/bench.sh); not part of the product.
        .executableTarget(
            name: "MatterBench",
            dependencies: [
                "MatterCore", "MatterCrypto", "MatterTransport", "MatterSecureChannel", "MatterStorage",
                "MatterDiscovery", "MatterDevice", "MatterController",
            ]
        ),

        // Helpers every test target shares (temporary directories, devices and controllers on loopback,
        // the process runner, hex, seeded randomness, waiting with a hang guard). A plain target, not a product.
        .target(
            name: "MatterTestSupport",
            dependencies: ["MatterController", "MatterDevice", "MatterDiscovery", "MatterTransport"],
            path: "Tests/MatterTestSupport"
        ),
        .testTarget(name: "MatterCoreTests", dependencies: ["MatterTestSupport", "MatterCore"]),
        .testTarget(name: "MatterTLVTests", dependencies: ["MatterTestSupport", "MatterTLV"]),
        .testTarget(
            name: "MatterCryptoTests", dependencies: ["MatterTestSupport", "MatterCrypto"],
            resources: [.copy("Vectors")]),
        .testTarget(
            name: "MatterOnboardingTests", dependencies: ["MatterTestSupport", "MatterOnboarding", "MatterTLV"]),
        .testTarget(
            name: "MatterDiscoveryTests", dependencies: ["MatterTestSupport", "MatterDiscovery", "MatterTransport"]),
        .testTarget(name: "MatterTransportTests", dependencies: ["MatterTestSupport", "MatterTransport"]),
        .testTarget(name: "MatterStorageTests", dependencies: ["MatterTestSupport", "MatterStorage"]),
        .testTarget(name: "MatterHTTPTests", dependencies: ["MatterTestSupport", "MatterHTTP"]),
        .testTarget(name: "MatterClustersTests", dependencies: ["MatterTestSupport", "MatterClusters"]),
        .testTarget(
            name: "MatterCredentialsTests", dependencies: ["MatterTestSupport", "MatterCredentials"],
            resources: [.copy("Vectors")]),
        .testTarget(name: "MatterSecureChannelTests", dependencies: ["MatterTestSupport", "MatterSecureChannel"]),
        .testTarget(name: "MatterInteractionTests", dependencies: ["MatterTestSupport", "MatterInteraction"]),
        .testTarget(name: "MatterDataModelTests", dependencies: ["MatterTestSupport", "MatterDataModel"]),
        .testTarget(
            name: "MatterDeviceTests", dependencies: ["MatterTestSupport", "MatterDevice", "MatterController"]),
        .testTarget(
            name: "MatterControllerTests", dependencies: ["MatterTestSupport", "MatterController", "MatterDevice"]),
        .testTarget(
            name: "MatterHomeTests",
            dependencies: ["MatterTestSupport", "MatterHome", "MatterController", "MatterDevice", "MatterDataModel"]
        ),
        // Runs the built `matter-emu` binary and checks stdout, stderr and exit codes.
        .testTarget(name: "MatterEmuCLITests", dependencies: ["MatterTestSupport", "MatterEmuCLI"]),
        // The crash and loss suites: the built `matter-emu` killed at every commissioning checkpoint, and
        // commissioning and commands through packet loss, on loopback (driven through --json and exit codes).
        .testTarget(
            name: "MatterEmuSuitesTests",
            dependencies: ["MatterTestSupport", "MatterEmuCLI", "MatterController", "MatterDevice", "MatterStorage"]
        ),
        // Suites on the virtual LAN of scripts/lan.sh (root, real Avahi): they run the built binaries inside
        // namespace hosts and are enabled only when a wrapper (scripts/test-network.sh, ...) exported the LAN.
        .testTarget(
            name: "MatterLANTests",
            dependencies: [
                "MatterTestSupport", "MatterEmuCLI", "MatterCore", "MatterClusters", "MatterDataModel",
                "matter-dnssd-probe",
                "matter-emu-hostile",
            ]),
    ]
)

// libFuzzer targets (Fuzz/, run by scripts/fuzz.sh), declared only when MATTER_EMU_FUZZ is set: they link only
// with `-sanitize=fuzzer` (the libFuzzer runtime), in the scratch path scripts/fuzz.sh keeps for them, so a plain
// `swift build` never sees them. Living in this package lets them reach internal decoders with `@testable import`.
if Context.environment["MATTER_EMU_FUZZ"] != nil {
    let fuzzTargets: [(name: String, folder: String, dependencies: [Target.Dependency])] = [
        ("fuzz-tlv", "TLV", ["MatterTLV"]),
        ("fuzz-message", "Message", ["MatterTransport"]),
        ("fuzz-onboarding", "Onboarding", ["MatterOnboarding"]),
        ("fuzz-certificate", "Certificate", ["MatterTLV", "MatterCredentials"]),
        ("fuzz-x509", "X509", ["MatterCredentials"]),
        ("fuzz-im", "Interaction", ["MatterTLV", "MatterClusters", "MatterInteraction"]),
        ("fuzz-securechannel", "SecureChannel", ["MatterCrypto", "MatterTransport", "MatterSecureChannel"]),
        ("fuzz-dns", "DNS", ["MatterDiscovery"]),
    ]
    package.targets.append(.target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/Support"))
    for fuzz in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: fuzz.name, dependencies: ["MatterCore", "FuzzSupport"] + fuzz.dependencies,
                path: "Fuzz/Targets/\(fuzz.folder)"
            ))
        package.products.append(.executable(name: fuzz.name, targets: [fuzz.name]))
    }
}

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    // Nonisolated async functions run on their caller's executor: protocol code awaiting on a node's
    // queue stays on that queue (no hop per message).
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
    target.swiftSettings = settings
}
