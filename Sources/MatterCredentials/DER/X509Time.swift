/// X.509 `Time` ⇄ Unix seconds (UTC), with the RFC 5280 rule Matter uses: years before 2050 as `UTCTime`
/// (`YYMMDDHHMMSSZ`), later years as `GeneralizedTime` (`YYYYMMDDHHMMSSZ`).
enum X509Time {
    /// 9999-12-31T23:59:59Z, "no well-defined expiration date" (RFC 5280 §4.1.2.5).
    static let noWellDefinedExpiration: Int64 = 253_402_300_799
    /// 0001-01-01 … 9999-12-31 is what the encodings can carry; UTCTime covers 1950…2049.
    static let earliest: Int64 = -62_135_596_800

    /// One `Time` element for `unixSeconds`.
    static func encode(_ unixSeconds: Int64) throws(CredentialsError) -> [UInt8] {
        guard unixSeconds >= earliest, unixSeconds <= noWellDefinedExpiration else {
            throw .invalidArgument("time \(unixSeconds) is outside 0001…9999")
        }
        let c = UTCCalendar.components(unixSeconds)
        let tail =
            digits(c.month, 2) + digits(c.day, 2) + digits(c.hour, 2) + digits(c.minute, 2)
            + digits(c.second, 2) + "Z"
        if c.year >= 1950 && c.year < 2050 {
            return DERWriter.element(DERTag.utcTime, Array((digits(c.year % 100, 2) + tail).utf8))
        }
        return DERWriter.element(DERTag.generalizedTime, Array((digits(c.year, 4) + tail).utf8))
    }

    /// Parses a `UTCTime` or `GeneralizedTime` in the DER profile (seconds present, `Z`, no fraction).
    static func decode(_ element: DERElement, what: String) throws(CredentialsError) -> Int64 {
        let text = element.contents
        let isUTC = element.tag == DERTag.utcTime
        guard isUTC || element.tag == DERTag.generalizedTime else {
            throw .malformedDER(what: what, reason: "expected UTCTime or GeneralizedTime")
        }
        let yearDigits = isUTC ? 2 : 4
        guard text.count == yearDigits + 11, text.last == UInt8(ascii: "Z"),
            text.dropLast().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { throw .malformedDER(what: what, reason: "time is not in the DER YYMMDDHHMMSSZ form") }
        let numbers = text.dropLast().map { Int($0 - UInt8(ascii: "0")) }
        func value(_ start: Int, _ count: Int) -> Int { numbers[start..<(start + count)].reduce(0) { $0 * 10 + $1 } }
        var year = value(0, yearDigits)
        if isUTC { year += year < 50 ? 2000 : 1900 }
        let month = value(yearDigits, 2)
        let day = value(yearDigits + 2, 2)
        let hour = value(yearDigits + 4, 2)
        let minute = value(yearDigits + 6, 2)
        let second = value(yearDigits + 8, 2)
        guard (1...12).contains(month), day >= 1, day <= UTCCalendar.daysInMonth(year: year, month: month),
            hour < 24, minute < 60, second < 60
        else { throw .malformedDER(what: what, reason: "time has an out-of-range field") }
        return UTCCalendar.unixSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// Proleptic Gregorian calendar arithmetic in UTC (days-from-civil), with no Foundation dependency.
enum UTCCalendar {
    struct Components: Equatable {
        var year, month, day, hour, minute, second: Int
    }

    static func unixSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = Int64(era) * 146_097 + Int64(dayOfEra) - 719_468
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    static func components(_ unixSeconds: Int64) -> Components {
        var days = unixSeconds / 86_400
        var secondsOfDay = unixSeconds % 86_400
        if secondsOfDay < 0 {
            secondsOfDay += 86_400
            days -= 1
        }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Components(
            year: Int(year), month: Int(month), day: Int(day), hour: Int(secondsOfDay / 3600),
            minute: Int(secondsOfDay % 3600 / 60), second: Int(secondsOfDay % 60))
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
