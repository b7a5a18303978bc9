/// Matter's TXT keys (spec digest dnssd.md §2). Keys are matched case-insensitively on parse.
enum MatterTXTKey {
    static let longDiscriminator = "D"
    static let commissioningMode = "CM"
    static let vendorProduct = "VP"
    static let deviceType = "DT"
    static let deviceName = "DN"
    static let rotatingDeviceID = "RI"
    static let pairingHint = "PH"
    static let pairingInstruction = "PI"
    static let sessionIdleInterval = "SII"
    static let sessionActiveInterval = "SAI"
    static let sessionActiveThreshold = "SAT"
    static let tcpSupport = "T"
    static let icd = "ICD"

    static let maxDeviceNameBytes = 32
    static let maxRotatingIDChars = 100
    static let maxPairingInstructionChars = 128
}

/// Shared TXT building and parsing for the keys every Matter service may carry.
enum MatterTXTCodec {
    /// Appends SII/SAI/SAT/T/ICD, checking their limits.
    static func appendCommon(
        to txt: inout DNSSDTXTRecord, session: MRPAdvertisement, tcp: TCPSupport, icd: ICDMode?
    ) throws(DiscoveryError) {
        if let sii = session.idleInterval {
            guard sii <= MRPAdvertisement.maxInterval else { throw .invalidRecord("SII \(sii) ms exceeds 3600000") }
            txt.append(MatterTXTKey.sessionIdleInterval, String(sii))
        }
        if let sai = session.activeInterval {
            guard sai <= MRPAdvertisement.maxInterval else { throw .invalidRecord("SAI \(sai) ms exceeds 3600000") }
            txt.append(MatterTXTKey.sessionActiveInterval, String(sai))
        }
        if let sat = session.activeThreshold { txt.append(MatterTXTKey.sessionActiveThreshold, String(sat)) }
        if !tcp.isEmpty {
            guard tcp.isSubset(of: [.client, .server]) else {
                throw .invalidRecord("T bitmap \(tcp.rawValue) has bits other than 2 (client) and 4 (server)")
            }
            txt.append(MatterTXTKey.tcpSupport, String(tcp.rawValue))
        }
        if let icd { txt.append(MatterTXTKey.icd, String(icd.rawValue)) }
    }

    /// SII/SAI/SAT as received; values out of range count as absent.
    static func session(from txt: DNSSDTXTRecord) -> MRPAdvertisement {
        MRPAdvertisement(
            idleInterval: decimal(txt[MatterTXTKey.sessionIdleInterval], max: MRPAdvertisement.maxInterval),
            activeInterval: decimal(txt[MatterTXTKey.sessionActiveInterval], max: MRPAdvertisement.maxInterval),
            activeThreshold: decimal(txt[MatterTXTKey.sessionActiveThreshold], max: UInt16.max))
    }

    /// `T`: the bitmap, or the legacy boolean `T=1` (TCP supported) read as `.server`.
    static func tcp(from txt: DNSSDTXTRecord) -> TCPSupport {
        guard let raw: UInt8 = decimal(txt[MatterTXTKey.tcpSupport], max: UInt8.max) else { return [] }
        if raw == 1 { return .server }
        return TCPSupport(rawValue: raw).intersection([.client, .server])
    }

    static func icd(from txt: DNSSDTXTRecord) -> ICDMode? {
        decimal(txt[MatterTXTKey.icd], max: UInt8(1)).flatMap(ICDMode.init(rawValue:))
    }

    /// A decimal ASCII number (digits only, 1...10 of them) not above `max`; nil otherwise.
    static func decimal<T: FixedWidthInteger & UnsignedInteger>(_ text: String?, max: T) -> T? {
        guard let text, !text.isEmpty, text.utf8.count <= 10,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = UInt64(text), value <= UInt64(max)
        else { return nil }
        return T(value)
    }

    /// `s` cut to at most `limit` UTF-8 bytes without splitting a character.
    static func truncated(_ s: String, toBytes limit: Int) -> String {
        guard s.utf8.count > limit else { return s }
        var out = ""
        for ch in s {
            guard out.utf8.count + String(ch).utf8.count <= limit else { break }
            out.append(ch)
        }
        return out
    }
}
