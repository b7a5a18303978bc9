/// The version `matter-emu --version` prints.
enum ToolVersion {
    /// This build's version.
    static let version = "0.1.0"
    /// The Matter specification revision the protocol follows.
    static let matterRevision = "1.5"  // what the devices report (BasicInformation SpecificationVersion)

    static var text: String { "matter-emu \(version) (Matter \(matterRevision))" }

    static var json: JSONValue {
        .object([
            ("name", .string("matter-emu")), ("version", .string(version)),
            ("matterRevision", .string(matterRevision)),
        ])
    }
}
