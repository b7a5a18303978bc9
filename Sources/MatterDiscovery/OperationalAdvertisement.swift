package import MatterCore

/// What a commissioned node publishes as `_matter._tcp`, once per fabric: instance
/// `<CompressedFabricID>-<NodeID>`, subtype `_I<CompressedFabricID>`, and the MRP keys in TXT.
package struct OperationalAdvertisement: Sendable, Hashable {
    /// The fabric's compressed identifier (HKDF of the root public key and fabric ID).
    package var compressedFabricID: UInt64
    package var nodeID: NodeID
    package var port: UInt16
    /// `SII`, `SAI`, `SAT`.
    package var sessionParameters: MRPAdvertisement
    /// `T`; empty omits the key.
    package var tcpSupport: TCPSupport
    /// `ICD`; nil omits the key.
    package var icdMode: ICDMode?

    package init(
        compressedFabricID: UInt64, nodeID: NodeID, port: UInt16 = MatterDNSSD.defaultPort,
        sessionParameters: MRPAdvertisement = .standard, tcpSupport: TCPSupport = [], icdMode: ICDMode? = nil
    ) {
        self.compressedFabricID = compressedFabricID
        self.nodeID = nodeID
        self.port = port
        self.sessionParameters = sessionParameters
        self.tcpSupport = tcpSupport
        self.icdMode = icdMode
    }

    /// `87E1B004E235A130-8FC7772401CD0696`.
    package var instanceName: String {
        MatterInstanceName.operational(compressedFabricID: compressedFabricID, nodeID: nodeID)
    }

    /// `_I<CompressedFabricID>`.
    package var subtypes: [String] { [MatterDNSSD.compressedFabricSubtype(compressedFabricID)] }

    /// SII/SAI/SAT/T/ICD as present (possibly empty).
    package func txtRecord() throws(DiscoveryError) -> DNSSDTXTRecord {
        var txt = DNSSDTXTRecord()
        try MatterTXTCodec.appendCommon(to: &txt, session: sessionParameters, tcp: tcpSupport, icd: icdMode)
        return txt
    }

    /// The `_matter._tcp` record to publish.
    package func serviceRecord() throws(DiscoveryError) -> DNSSDServiceRecord {
        let record = DNSSDServiceRecord(
            serviceType: MatterDNSSD.operationalServiceType, instanceName: instanceName, port: port,
            subtypes: subtypes, txt: try txtRecord(), renaming: .numbered, probes: false)
        try record.validate()
        return record
    }

    /// Parses a received operational record; the instance name must be `<16 hex>-<16 hex>`.
    package init(instanceName: String, port: UInt16, txt: DNSSDTXTRecord) throws(DiscoveryError) {
        let ids = try MatterInstanceName.parseOperational(instanceName)
        self.init(
            compressedFabricID: ids.compressedFabricID, nodeID: ids.nodeID, port: port,
            sessionParameters: MatterTXTCodec.session(from: txt), tcpSupport: MatterTXTCodec.tcp(from: txt),
            icdMode: MatterTXTCodec.icd(from: txt))
    }
}
