// swift-tools-version:6.1
// An outside package that depends on matter-emu by path: it starts a virtual dimmable light in-process
// (MatterDevice), commissions it and toggles it through the Home API (MatterHome). See README.md.
import PackageDescription

let package = Package(
    name: "HomeQuickStart",
    dependencies: [.package(name: "MatterEmulator", path: "../..")],
    targets: [
        .executableTarget(
            name: "HomeQuickStart",
            dependencies: [
                .product(name: "MatterHome", package: "MatterEmulator"),
                .product(name: "MatterDevice", package: "MatterEmulator"),
                .product(name: "MatterOnboarding", package: "MatterEmulator"),
            ]
        )
    ]
)
