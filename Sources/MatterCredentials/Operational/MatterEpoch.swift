#if canImport(Glibc)
    import Glibc
#endif

/// Matter's epoch: seconds since 2000-01-01T00:00:00Z, the unit of certificate validity in TLV.
package enum MatterEpoch {
    /// Unix time of the Matter epoch (946684800).
    package static let unixOffset: Int64 = 946_684_800

    /// Matter-epoch seconds for a UTC date.
    package static func seconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0)
        -> UInt32
    {
        let unix = UTCCalendar.unixSeconds(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return UInt32(clamping: max(0, unix - unixOffset))
    }
}

/// The time a certificate's validity period is checked against.
package enum CertificateValidationTime: Sendable, Hashable {
    /// Seconds since the Unix epoch (UTC).
    case unixSeconds(Int64)
    /// No trustworthy clock: validity periods are not checked.
    case unavailable

    /// The system clock's current time.
    package static var now: CertificateValidationTime { .unixSeconds(Int64(time(nil))) }

    /// A UTC date.
    package static func date(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Self {
        .unixSeconds(
            UTCCalendar.unixSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }
}
