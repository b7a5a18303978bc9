// swift-tools-version:6.1
// An outside package that depends on matter-emu by path: it starts virtual devices in-process (MatterDevice),
// commissions them and drives them through the Home API (MatterHome) with the samples of its guides. See README.md.
import PackageDescription

let package = Package(
    name: "HomeQuickStart",
    dependencies: [.package(name: "MatterEmulator", path: "../..")],
    targets: [
        // The guides' samples and the quick start's set-up (devices in this process, commissioning at their address).
        .target(
            name: "HomeQuickStartSamples",
            dependencies: [
                .product(name: "MatterHome", package: "MatterEmulator"),
                .product(name: "MatterDevice", package: "MatterEmulator"),
                .product(name: "MatterOnboarding", package: "MatterEmulator"),
            ]
        ),
        // The quick start a user runs: `swift run HomeQuickStart [STATE-DIR]`.
        .executableTarget(
            name: "HomeQuickStart",
            dependencies: [
                "HomeQuickStartSamples",
                .product(name: "MatterHome", package: "MatterEmulator"),
            ]
        ),
        // One Swift Testing test per sample (or tight group of samples), and the quick start run as a user would.
        .testTarget(
            name: "HomeQuickStartTests",
            dependencies: [
                "HomeQuickStartSamples", "HomeQuickStart",
                .product(name: "MatterHome", package: "MatterEmulator"),
                .product(name: "MatterDevice", package: "MatterEmulator"),
                .product(name: "MatterOnboarding", package: "MatterEmulator"),
            ]
        ),
    ]
)
