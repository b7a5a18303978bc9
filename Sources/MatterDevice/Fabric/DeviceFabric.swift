public import MatterCore
import MatterCredentials
import MatterCrypto
import MatterSecureChannel
import MatterTLV

/// One fabric the device belongs to: its operational identity and the fabric's trust anchors.
/// Persisted as a TLV structure (tags in the order of the properties below).
public struct DeviceFabric: Sendable, Equatable {
    public var index: UInt8
    public var fabricID: FabricID
    public var nodeID: NodeID
    /// The admin vendor ID AddNOC named.
    public var vendorID: VendorID
    public var label: String
    /// Matter TLV certificates.
    public var rcac: [UInt8]
    public var icac: [UInt8]?
    public var noc: [UInt8]
    /// The operational private key (raw 32-byte scalar). Never logged.
    var operationalKey: [UInt8]
    /// IPK epoch key (key set 0), as AddNOC carried it.
    public var ipkEpochKey: [UInt8]
    /// The root's public key (65 bytes).
    public var rootPublicKey: [UInt8]
    /// SetVIDVerificationStatement's statement (85 bytes), when one is set.
    public var vidVerificationStatement: [UInt8]?
    /// SetVIDVerificationStatement's VID verification signer certificate, when one is set.
    public var vvsc: [UInt8]?

    public static func == (a: DeviceFabric, b: DeviceFabric) -> Bool { a.encoded() == b.encoded() }

    /// The 8-byte compressed fabric ID as an integer (names the `_matter._tcp` instance).
    public var compressedFabricID: UInt64 {
        guard let bytes = try? CASEKeySchedule.compressedFabricID(rootPublicKey: rootPublicKey, fabricID: fabricID)
        else { return 0 }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    func caseCredentials() throws -> CASECredentials {
        CASECredentials(
            fabricIndex: index, fabricID: fabricID, nodeID: nodeID, rcac: rcac, rootPublicKey: rootPublicKey,
            icac: icac, noc: noc, operationalKey: try P256PrivateKey(rawRepresentation: operationalKey),
            ipkEpochKeys: [ipkEpochKey])
    }

    func encoded() -> [UInt8] {
        var w = TLVWriter(capacity: 1200)
        w.putStructure { w in
            w.put(index, tag: .context(1))
            w.put(fabricID.rawValue, tag: .context(2))
            w.put(nodeID.rawValue, tag: .context(3))
            w.put(vendorID.rawValue, tag: .context(4))
            w.put(label, tag: .context(5))
            w.put(rcac, tag: .context(6))
            if let icac { w.put(icac, tag: .context(7)) }
            w.put(noc, tag: .context(8))
            w.put(operationalKey, tag: .context(9))
            w.put(ipkEpochKey, tag: .context(10))
            w.put(rootPublicKey, tag: .context(11))
            if let vidVerificationStatement { w.put(vidVerificationStatement, tag: .context(12)) }
            if let vvsc { w.put(vvsc, tag: .context(13)) }
        }
        return w.bytes
    }

    init(
        index: UInt8, fabricID: FabricID, nodeID: NodeID, vendorID: VendorID, label: String, rcac: [UInt8],
        icac: [UInt8]?, noc: [UInt8], operationalKey: [UInt8], ipkEpochKey: [UInt8], rootPublicKey: [UInt8]
    ) {
        self.index = index
        self.fabricID = fabricID
        self.nodeID = nodeID
        self.vendorID = vendorID
        self.label = label
        self.rcac = rcac
        self.icac = icac
        self.noc = noc
        self.operationalKey = operationalKey
        self.ipkEpochKey = ipkEpochKey
        self.rootPublicKey = rootPublicKey
    }

    init(decoding bytes: [UInt8]) throws(DeviceError) {
        do {
            let e = try TLVElement.decode(bytes)
            index = try e.decodeMember(.context(1))
            fabricID = FabricID(try e.decodeMember(.context(2)))
            nodeID = NodeID(try e.decodeMember(.context(3)))
            vendorID = VendorID(try e.decodeMember(.context(4)))
            label = try e.decodeMember(.context(5))
            rcac = try e.decodeMember(.context(6))
            icac = try e.decodeMemberIfPresent(.context(7))
            noc = try e.decodeMember(.context(8))
            operationalKey = try e.decodeMember(.context(9))
            ipkEpochKey = try e.decodeMember(.context(10))
            rootPublicKey = try e.decodeMember(.context(11))
            vidVerificationStatement = try e.decodeMemberIfPresent(.context(12))
            vvsc = try e.decodeMemberIfPresent(.context(13))
        } catch {
            throw .storage("stored fabric record is unreadable: \(error)")
        }
    }
}
