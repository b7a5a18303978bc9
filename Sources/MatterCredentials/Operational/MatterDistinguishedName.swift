package import MatterCore

/// The subject or issuer of a Matter operational certificate.
///
/// In TLV a DN is a list of context-tagged values, tag = attribute number; in DER each attribute becomes one RDN,
/// in the same order:
///
/// | TLV tag | attribute | TLV value | DER value |
/// |---|---|---|---|
/// | 1…15 | X.520 string attributes (``TextAttribute``, OIDs 2.5.4.x) | UTF-8 string | UTF8String, or PrintableString when the tag has 0x80 set |
/// | 16 | domainComponent | UTF-8 string | IA5String |
/// | 17 | matter-node-id (1.3.6.1.4.1.37244.1.1) | uint64 | UTF8String, 16 upper-case hex digits |
/// | 18 | matter-firmware-signing-id (…1.2) | uint64 | same |
/// | 19 | matter-icac-id (…1.3) | uint64 | same |
/// | 20 | matter-rcac-id (…1.4) | uint64 | same |
/// | 21 | matter-fabric-id (…1.5) | uint64 | same |
/// | 22 | matter-noc-cat (…1.6) | uint32 | UTF8String, 8 upper-case hex digits |
package struct MatterDistinguishedName: Hashable, Sendable {
    /// One attribute (one RDN).
    package enum Attribute: Hashable, Sendable {
        /// matter-node-id (TLV tag 17).
        case nodeID(UInt64)
        /// matter-firmware-signing-id (18).
        case firmwareSigningID(UInt64)
        /// matter-icac-id (19).
        case icacID(UInt64)
        /// matter-rcac-id (20).
        case rcacID(UInt64)
        /// matter-fabric-id (21).
        case fabricID(UInt64)
        /// matter-noc-cat (22).
        case caseAuthenticatedTag(CASEAuthenticatedTag)
        /// A string attribute; `printableString` selects PrintableString over UTF8String in DER (TLV tag | 0x80).
        /// Ignored for domainComponent, which is always IA5String.
        case text(TextAttribute, String, printableString: Bool)
    }

    /// The string attributes a Matter DN can carry; the raw value is the TLV tag.
    package enum TextAttribute: UInt8, Hashable, Sendable, CaseIterable {
        case commonName = 1
        case surname, serialNumber, countryName, localityName, stateOrProvinceName
        case organizationName, organizationalUnitName, title, name, givenName, initials, generationQualifier
        case dnQualifier, pseudonym, domainComponent
    }

    /// The attributes, in certificate order.
    package var attributes: [Attribute]

    package init(_ attributes: [Attribute] = []) { self.attributes = attributes }

    /// The first matter-node-id.
    package var nodeID: NodeID? {
        for case .nodeID(let value) in attributes { return NodeID(value) }
        return nil
    }
    /// The first matter-fabric-id.
    package var fabricID: FabricID? {
        for case .fabricID(let value) in attributes { return FabricID(value) }
        return nil
    }
    /// The first matter-rcac-id.
    package var rcacID: UInt64? {
        for case .rcacID(let value) in attributes { return value }
        return nil
    }
    /// The first matter-icac-id.
    package var icacID: UInt64? {
        for case .icacID(let value) in attributes { return value }
        return nil
    }
    /// The first matter-firmware-signing-id.
    package var firmwareSigningID: UInt64? {
        for case .firmwareSigningID(let value) in attributes { return value }
        return nil
    }
    /// All matter-noc-cat values, in order.
    package var caseAuthenticatedTags: [CASEAuthenticatedTag] {
        attributes.compactMap { if case .caseAuthenticatedTag(let cat) = $0 { cat } else { nil } }
    }
    /// The first commonName.
    package var commonName: String? {
        for case .text(.commonName, let value, _) in attributes { return value }
        return nil
    }
}

extension MatterDistinguishedName.Attribute {
    /// The TLV tag number (with 0x80 for PrintableString).
    var tlvTag: UInt8 {
        switch self {
        case .nodeID: 17
        case .firmwareSigningID: 18
        case .icacID: 19
        case .rcacID: 20
        case .fabricID: 21
        case .caseAuthenticatedTag: 22
        case .text(let type, _, let printable): type.rawValue | (printable && type != .domainComponent ? 0x80 : 0)
        }
    }

    var name: String {
        switch self {
        case .nodeID: "matter-node-id"
        case .firmwareSigningID: "matter-firmware-signing-id"
        case .icacID: "matter-icac-id"
        case .rcacID: "matter-rcac-id"
        case .fabricID: "matter-fabric-id"
        case .caseAuthenticatedTag: "matter-noc-cat"
        case .text(let type, _, _): "\(type)"
        }
    }
}

extension MatterDistinguishedName.TextAttribute {
    /// The attribute's OID contents.
    var oid: [UInt8] {
        switch self {
        case .commonName: OID.x520(3)
        case .surname: OID.x520(4)
        case .serialNumber: OID.x520(5)
        case .countryName: OID.x520(6)
        case .localityName: OID.x520(7)
        case .stateOrProvinceName: OID.x520(8)
        case .organizationName: OID.x520(10)
        case .organizationalUnitName: OID.x520(11)
        case .title: OID.x520(12)
        case .name: OID.x520(41)
        case .givenName: OID.x520(42)
        case .initials: OID.x520(43)
        case .generationQualifier: OID.x520(44)
        case .dnQualifier: OID.x520(46)
        case .pseudonym: OID.x520(65)
        case .domainComponent: OID.domainComponent
        }
    }

    init?(oid: [UInt8]) {
        guard let match = Self.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = match
    }
}
