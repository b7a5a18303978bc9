package import MatterCore
import MatterTLV

/// The content of a certification declaration (CD): what the CSA certified, as TLV inside a CMS envelope
/// (``SignedCertificationDeclaration``).
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | format_version | uint (1) |
/// | 1 | vendor_id | uint16 |
/// | 2 | product_id_array | array of uint16, 1…100 entries |
/// | 3 | device_type_id | uint32 |
/// | 4 | certificate_id | UTF-8 string, exactly 19 characters |
/// | 5 | security_level | uint8 (0) |
/// | 6 | security_information | uint16 (0) |
/// | 7 | version_number | uint16 |
/// | 8 | certification_type | uint8: 0 development/test, 1 provisional, 2 official |
/// | 9 | dac_origin_vendor_id | uint16, optional (with 10) |
/// | 10 | dac_origin_product_id | uint16, optional (with 9) |
/// | 11 | authorized_paa_list | array of 1…10 octet strings (20-byte PAA SKIDs), optional |
package struct CertificationDeclaration: Hashable, Sendable {
    /// certification_type values.
    package enum CertificationType: UInt8, Hashable, Sendable {
        case developmentAndTest = 0
        case provisional = 1
        case official = 2
    }

    package static let certificateIDLength = 19
    package static let maximumProductIDCount = 100
    package static let maximumAuthorizedPAACount = 10

    package var formatVersion: UInt16
    package var vendorID: VendorID
    package var productIDs: [ProductID]
    package var deviceTypeID: UInt32
    package var certificateID: String
    package var securityLevel: UInt8
    package var securityInformation: UInt16
    package var versionNumber: UInt16
    package var certificationType: CertificationType
    package var dacOriginVendorID: VendorID?
    package var dacOriginProductID: ProductID?
    package var authorizedPAAList: [[UInt8]]?

    package init(
        vendorID: VendorID, productIDs: [ProductID], deviceTypeID: UInt32, certificateID: String,
        versionNumber: UInt16 = 1, certificationType: CertificationType = .developmentAndTest,
        formatVersion: UInt16 = 1,
        securityLevel: UInt8 = 0, securityInformation: UInt16 = 0, dacOriginVendorID: VendorID? = nil,
        dacOriginProductID: ProductID? = nil, authorizedPAAList: [[UInt8]]? = nil
    ) {
        self.formatVersion = formatVersion
        self.vendorID = vendorID
        self.productIDs = productIDs
        self.deviceTypeID = deviceTypeID
        self.certificateID = certificateID
        self.securityLevel = securityLevel
        self.securityInformation = securityInformation
        self.versionNumber = versionNumber
        self.certificationType = certificationType
        self.dacOriginVendorID = dacOriginVendorID
        self.dacOriginProductID = dacOriginProductID
        self.authorizedPAAList = authorizedPAAList
    }

    /// Decodes CD TLV: tags 0…8 in order, then optional 9 and 10 together, then optional 11; unknown later
    /// members are ignored.
    package init(tlv bytes: [UInt8]) throws(CredentialsError) {
        var fields = try TLVFieldReader(structure: bytes, what: "certification declaration")
        formatVersion = try fields.uint16(0, "format_version")
        vendorID = VendorID(try fields.uint16(1, "vendor_id"))
        guard let productArray = fields.optional(2), case .array(let items) = productArray.value else {
            throw fields.fail("product_id_array (tag 2) must be an array")
        }
        productIDs = []
        for item in items {
            guard let value = item.uint, let pid = UInt16(exactly: value) else {
                throw fields.fail("product_id_array holds a value that is not a uint16")
            }
            productIDs.append(ProductID(pid))
        }
        guard (1...Self.maximumProductIDCount).contains(productIDs.count) else {
            throw fields.fail("product_id_array must hold 1…100 entries, got \(productIDs.count)")
        }
        deviceTypeID = try fields.uint32(3, "device_type_id")
        guard let certificate = fields.optional(4)?.string else {
            throw fields.fail("certificate_id (tag 4) must be a string")
        }
        guard certificate.utf8.count == Self.certificateIDLength else {
            throw fields.fail("certificate_id must be exactly 19 characters")
        }
        certificateID = certificate
        guard let level = UInt8(exactly: try fields.unsigned(5, "security_level")) else {
            throw fields.fail("security_level must be a uint8")
        }
        securityLevel = level
        securityInformation = try fields.uint16(6, "security_information")
        versionNumber = try fields.uint16(7, "version_number")
        guard let typeValue = UInt8(exactly: try fields.unsigned(8, "certification_type")),
            let type = CertificationType(rawValue: typeValue)
        else { throw fields.fail("certification_type must be 0, 1 or 2") }
        certificationType = type
        if fields.peek(9) {
            dacOriginVendorID = VendorID(try fields.uint16(9, "dac_origin_vendor_id"))
            dacOriginProductID = ProductID(try fields.uint16(10, "dac_origin_product_id"))
        } else if fields.peek(10) {
            throw fields.fail("dac_origin_product_id without dac_origin_vendor_id")
        }
        if let list = fields.optional(11) {
            guard case .array(let items) = list.value, (1...Self.maximumAuthorizedPAACount).contains(items.count) else {
                throw fields.fail("authorized_paa_list must be an array of 1…10 key identifiers")
            }
            var skids: [[UInt8]] = []
            for item in items {
                guard let skid = item.bytes, skid.count == 20 else {
                    throw fields.fail("authorized_paa_list entries must be 20-byte key identifiers")
                }
                skids.append(skid)
            }
            authorizedPAAList = skids
        }
    }

    /// The TLV encoding, as the SDK writes it (minimal integer widths, tag order).
    package var tlvEncoded: [UInt8] {
        var writer = TLVWriter(capacity: 64 + productIDs.count * 3)
        writer.putStructure { w in
            w.putUnsigned(UInt64(formatVersion), tag: .context(0))
            w.putUnsigned(UInt64(vendorID.rawValue), tag: .context(1))
            w.putArray(tag: .context(2)) { w in
                for pid in productIDs { w.putUnsigned(UInt64(pid.rawValue)) }
            }
            w.putUnsigned(UInt64(deviceTypeID), tag: .context(3))
            w.put(certificateID, tag: .context(4))
            w.putUnsigned(UInt64(securityLevel), tag: .context(5))
            w.putUnsigned(UInt64(securityInformation), tag: .context(6))
            w.putUnsigned(UInt64(versionNumber), tag: .context(7))
            w.putUnsigned(UInt64(certificationType.rawValue), tag: .context(8))
            if let dacOriginVendorID, let dacOriginProductID {
                w.putUnsigned(UInt64(dacOriginVendorID.rawValue), tag: .context(9))
                w.putUnsigned(UInt64(dacOriginProductID.rawValue), tag: .context(10))
            }
            if let authorizedPAAList {
                w.putArray(tag: .context(11)) { w in
                    for skid in authorizedPAAList { w.putBytes(skid) }
                }
            }
        }
        return writer.bytes
    }
}

extension TLVFieldReader {
    mutating func uint16(_ tag: UInt8, _ name: String) throws(CredentialsError) -> UInt16 {
        guard let value = UInt16(exactly: try unsigned(tag, name)) else { throw fail("\(name) must fit in 16 bits") }
        return value
    }
}
