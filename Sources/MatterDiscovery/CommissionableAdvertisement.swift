package import MatterCore

/// What a commissionable node publishes as `_matterc._udp`: the instance name, SRV port, subtypes
/// (`_L`, `_S`, `_V`, `_T`, `_CM`) and TXT (`D`, `CM`, `VP`, `DT`, `DN`, `RI`, `PH`, `PI`, `SII`, `SAI`,
/// `SAT`, `T`, `ICD`). Optional fields that are nil are not published. Also the parsed form of a
/// received record.
package struct CommissionableAdvertisement: Sendable, Hashable {
    /// 16 random upper-case hex digits; pick a new one whenever a commissioning window opens.
    package var instanceName: String
    package var port: UInt16
    /// `D` and `_L`: the 12-bit discriminator (0...4095).
    package var longDiscriminator: UInt16
    /// `CM` (and `_CM` when open).
    package var commissioningMode: CommissioningMode
    /// `VP` (vendor part) and `_V`. Leave nil to keep the vendor private.
    package var vendorID: VendorID?
    /// `VP` (`<vid>+<pid>`); published only together with `vendorID`.
    package var productID: ProductID?
    /// `DT` and `_T`: primary device type.
    package var deviceType: DeviceTypeID?
    /// `DN`: UTF-8 device name; cut to 32 bytes (at a character boundary) when published.
    package var deviceName: String?
    /// `RI`: rotating device identifier, upper-case hex, at most 100 characters.
    package var rotatingDeviceID: String?
    /// `PH`: pairing hint bitmap.
    package var pairingHint: PairingHint?
    /// `PI`: pairing instruction, at most 128 characters; required when `pairingHint` needs it.
    package var pairingInstruction: String?
    /// `SII`, `SAI`, `SAT`.
    package var sessionParameters: MRPAdvertisement
    /// `T`; empty omits the key.
    package var tcpSupport: TCPSupport
    /// `ICD`; nil omits the key.
    package var icdMode: ICDMode?

    package init(
        instanceName: String = MatterInstanceName.randomCommissionable(),
        port: UInt16 = MatterDNSSD.defaultPort,
        longDiscriminator: UInt16,
        commissioningMode: CommissioningMode = .basic,
        vendorID: VendorID? = nil,
        productID: ProductID? = nil,
        deviceType: DeviceTypeID? = nil,
        deviceName: String? = nil,
        rotatingDeviceID: String? = nil,
        pairingHint: PairingHint? = nil,
        pairingInstruction: String? = nil,
        sessionParameters: MRPAdvertisement = .standard,
        tcpSupport: TCPSupport = [],
        icdMode: ICDMode? = nil
    ) {
        self.instanceName = instanceName
        self.port = port
        self.longDiscriminator = longDiscriminator
        self.commissioningMode = commissioningMode
        self.vendorID = vendorID
        self.productID = productID
        self.deviceType = deviceType
        self.deviceName = deviceName
        self.rotatingDeviceID = rotatingDeviceID
        self.pairingHint = pairingHint
        self.pairingInstruction = pairingInstruction
        self.sessionParameters = sessionParameters
        self.tcpSupport = tcpSupport
        self.icdMode = icdMode
    }

    /// The 4-bit short discriminator (`_S`), as carried by a manual pairing code.
    package var shortDiscriminator: UInt8 { MatterDNSSD.shortDiscriminator(ofLong: longDiscriminator) }

    /// Subtype labels, in the SDK's order: `_L`, `_S`, `_V` (if vendor), `_T` (if device type), `_CM` (if open).
    package var subtypes: [String] {
        var out = [
            MatterDNSSD.longDiscriminatorSubtype(longDiscriminator),
            MatterDNSSD.shortDiscriminatorSubtype(shortDiscriminator),
        ]
        if let vendorID { out.append(MatterDNSSD.vendorSubtype(vendorID)) }
        if let deviceType { out.append(MatterDNSSD.deviceTypeSubtype(deviceType)) }
        if commissioningMode.isOpen { out.append(MatterDNSSD.commissioningModeSubtype) }
        return out
    }

    /// The TXT record, checked against every key's limit.
    package func txtRecord() throws(DiscoveryError) -> DNSSDTXTRecord {
        guard longDiscriminator <= MatterDNSSD.maxLongDiscriminator else {
            throw .invalidRecord("discriminator \(longDiscriminator) is above 4095")
        }
        var txt = DNSSDTXTRecord()
        txt.append(MatterTXTKey.longDiscriminator, String(longDiscriminator))
        txt.append(MatterTXTKey.commissioningMode, String(commissioningMode.rawValue))
        if let vendorID {
            txt.append(
                MatterTXTKey.vendorProduct,
                productID.map { "\(vendorID.rawValue)+\($0.rawValue)" } ?? String(vendorID.rawValue))
        } else if productID != nil {
            throw .invalidRecord("VP: a product ID needs a vendor ID")
        }
        if let deviceType { txt.append(MatterTXTKey.deviceType, String(deviceType.rawValue)) }
        if let deviceName {
            txt.append(
                MatterTXTKey.deviceName, MatterTXTCodec.truncated(deviceName, toBytes: MatterTXTKey.maxDeviceNameBytes))
        }
        if let rotatingDeviceID {
            guard rotatingDeviceID.count <= MatterTXTKey.maxRotatingIDChars, !rotatingDeviceID.isEmpty,
                rotatingDeviceID.utf8.allSatisfy({ isUpperHex($0) })
            else { throw .invalidRecord("RI must be 1 to 100 upper-case hex digits") }
            txt.append(MatterTXTKey.rotatingDeviceID, rotatingDeviceID)
        }
        if let pairingHint {
            txt.append(MatterTXTKey.pairingHint, String(pairingHint.rawValue))
            if pairingHint.needsInstruction && pairingInstruction == nil {
                throw .invalidRecord("PH \(pairingHint.rawValue) needs a PI pairing instruction")
            }
        }
        if let pairingInstruction {
            guard pairingInstruction.count <= MatterTXTKey.maxPairingInstructionChars else {
                throw .invalidRecord("PI is \(pairingInstruction.count) characters; the limit is 128")
            }
            txt.append(MatterTXTKey.pairingInstruction, pairingInstruction)
        }
        try MatterTXTCodec.appendCommon(to: &txt, session: sessionParameters, tcp: tcpSupport, icd: icdMode)
        return txt
    }

    /// The `_matterc._udp` record to publish.
    package func serviceRecord() throws(DiscoveryError) -> DNSSDServiceRecord {
        let record = DNSSDServiceRecord(
            serviceType: MatterDNSSD.commissionableServiceType, instanceName: instanceName, port: port,
            subtypes: subtypes, txt: try txtRecord(), renaming: .randomHex)
        try record.validate()
        return record
    }

    /// Parses a received commissionable record. `D` is required; a missing `CM` reads as 0; an
    /// optional key with a malformed value is treated as absent (as the SDK does).
    package init(instanceName: String, port: UInt16, txt: DNSSDTXTRecord) throws(DiscoveryError) {
        guard let d = MatterTXTCodec.decimal(txt[MatterTXTKey.longDiscriminator], max: MatterDNSSD.maxLongDiscriminator)
        else {
            throw .malformedRecord("\(instanceName): D (discriminator 0...4095) is missing or malformed")
        }
        self.init(
            instanceName: instanceName, port: port, longDiscriminator: d,
            sessionParameters: MatterTXTCodec.session(from: txt))
        if let cmText = txt[MatterTXTKey.commissioningMode] {
            guard let cm = MatterTXTCodec.decimal(cmText, max: UInt8.max) else {
                throw .malformedRecord("\(instanceName): CM '\(cmText)' is not a number")
            }
            commissioningMode = CommissioningMode(rawValue: cm)
        } else {
            commissioningMode = .notOpen
        }
        if let vp = txt[MatterTXTKey.vendorProduct] {
            let parts = vp.split(separator: "+", omittingEmptySubsequences: false)
            if parts.count <= 2, let v = MatterTXTCodec.decimal(String(parts[0]), max: UInt16.max) {
                vendorID = VendorID(v)
                if parts.count == 2 {
                    productID = MatterTXTCodec.decimal(String(parts[1]), max: UInt16.max).map(ProductID.init)
                }
            }
        }
        deviceType = MatterTXTCodec.decimal(txt[MatterTXTKey.deviceType], max: UInt32.max).map(DeviceTypeID.init)
        deviceName = txt[MatterTXTKey.deviceName]
        rotatingDeviceID = txt[MatterTXTKey.rotatingDeviceID]
        pairingHint = MatterTXTCodec.decimal(txt[MatterTXTKey.pairingHint], max: UInt32.max).map(PairingHint.init)
        pairingInstruction = txt[MatterTXTKey.pairingInstruction]
        tcpSupport = MatterTXTCodec.tcp(from: txt)
        icdMode = MatterTXTCodec.icd(from: txt)
    }
}

private func isUpperHex(_ c: UInt8) -> Bool {
    (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F"))
}
