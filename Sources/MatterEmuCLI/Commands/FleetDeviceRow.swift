import MatterCore
import MatterOnboarding

/// One device's row in `fleet`'s and `fleet codes`'s output, so both print a device alike.
struct FleetDeviceRow {
    /// Shard and global index, for a sharded fleet.
    var shard: (index: Int, globalIndex: Int)?
    let index: Int
    let type: String
    let port: UInt16
    let discriminator: UInt16
    let payload: SetupPayload
    /// Serial number and unique ID, when known without asking the device.
    var serialNumber: String?
    var uniqueID: String?

    static func header(sharded: Bool) -> String {
        (sharded ? "shard  global  " : "")
            + "index  type                      port   disc  passcode  manual code    QR code"
    }

    func json() throws -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if let shard {
            fields += [("shard", .int(Int64(shard.index))), ("globalIndex", .int(Int64(shard.globalIndex)))]
        }
        fields += [
            ("index", .int(Int64(index))), ("type", .string(type)), ("port", .uint(UInt64(port))),
            ("discriminator", .uint(UInt64(discriminator))), ("passcode", .uint(UInt64(payload.passcode))),
            ("manualCode", .string(try ManualPairingCode.encode(payload))),
            ("qrCode", .string(try SetupQRCode.encode(payload))),
        ]
        if let serialNumber { fields.append(("serialNumber", .string(serialNumber))) }
        if let uniqueID { fields.append(("uniqueID", .string(uniqueID))) }
        return .object(fields)
    }

    func line() throws -> String {
        var columns: [String] = []
        if let shard { columns += [String(shard.index).padded(5), String(shard.globalIndex).padded(6)] }
        columns += [
            String(index).padded(5), type.padded(24), String(port).padded(5), String(discriminator).padded(4),
            String(payload.passcode).padded(8),
            ManualPairingCode.formatted(try ManualPairingCode.encode(payload)).padded(13),
            try SetupQRCode.encode(payload),
        ]
        return columns.joined(separator: "  ")
    }
}
