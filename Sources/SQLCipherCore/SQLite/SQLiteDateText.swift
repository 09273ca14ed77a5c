import Foundation

// MARK: - SQLiteDateText

/// SQLite's date and time texts (lang_datefunc.html, "Time Values"), written and parsed by hand:
/// no `DateFormatter` (slow, and locale- and calendar-dependent), proleptic Gregorian calendar,
/// UTC.
enum SQLiteDateText {
    /// `YYYY-MM-DD HH:MM:SS.SSS` in UTC, the milliseconds rounded to the nearest: the text
    /// SQLite's `strftime('%Y-%m-%d %H:%M:%f')` writes, and GRDB stores.
    static func format(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        // A date beyond Int64 milliseconds (about 292 million years) is clamped, not trapped.
        let total = Int64(exactly: milliseconds) ?? (milliseconds < 0 ? Int64.min / 2 : Int64.max / 2)
        let (days, dayMilliseconds) = floorDivision(total, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = dayMilliseconds / 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " " + pad(seconds / 3600, 2) + ":"
            + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2) + "." + pad(dayMilliseconds % 1000, 3)
    }

    /// The date of one of SQLite's time-value texts, or `nil`:
    /// `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD HH:MM:SS.SSS` (any
    /// number of fraction digits), each with `T` instead of the space, and `HH:MM`, `HH:MM:SS`,
    /// `HH:MM:SS.SSS` alone (on 2000-01-01, as SQLite reads them); a time may end with `Z` or a
    /// `+HH:MM` / `-HH:MM` offset (the local time it gives, east of UTC), otherwise it is UTC.
    /// Spaces after the text are ignored, as SQLite ignores them (not before it).
    static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        var days = daysFromCivil(year: 2000, month: 1, day: 1)
        if let date = scanner.date() {
            days = date
            guard scanner.separator() else {
                scanner.skipSpaces()
                return scanner.atEnd ? Date(timeIntervalSince1970: Double(days) * 86_400) : nil
            }
        }
        guard let time = scanner.time(), let offset = scanner.zone() else { return nil }
        scanner.skipSpaces()
        guard scanner.atEnd else { return nil }
        // Whole units of 10^-digits second, so that `…20.123` is the Double nearest to .123,
        // as `Date(timeIntervalSince1970: 1700000000.123)` is.
        let seconds = days * 86_400 + time.seconds - offset
        return Date(timeIntervalSince1970: Double(seconds * time.scale + time.fraction) / Double(time.scale))
    }

    // MARK: - Calendar arithmetic (Howard Hinnant's civil-from-days algorithms)

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a count of days since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Quotient rounded down and a remainder in `0..<divisor`.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// `value` in decimal with leading zeros to `width` digits (a `-` before them when negative).
    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }
}

// MARK: - Scanner

/// A cursor over the UTF-8 of a time value.
private struct Scanner {
    package let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    mutating func skipSpaces() {
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
    }

    /// Exactly `count` digits, or `nil` (the position unchanged).
    mutating func digits(_ count: Int) -> Int64? {
        guard position + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[position..<position + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        position += count
        return value
    }

    /// `byte` next: consumed, `true`.
    mutating func take(_ byte: Character) -> Bool {
        guard position < bytes.count, let ascii = byte.asciiValue, bytes[position] == ascii else { return false }
        position += 1
        return true
    }

    /// `YYYY-MM-DD` as days since 1970, or `nil` with the position unchanged (a time alone).
    mutating func date() -> Int64? {
        let start = position
        guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2),
            (1...12).contains(month), (1...31).contains(day)
        else {
            position = start
            return nil
        }
        return SQLiteDateText.daysFromCivil(year: year, month: month, day: day)
    }

    /// The space or `T` between a date and its time; `false` when the text has no time.
    mutating func separator() -> Bool {
        let start = position
        guard take(" ") || take("T") || take("t") else { return false }
        while take(" ") {}
        if position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") { return true }
        position = start
        return false
    }

    /// `HH:MM[:SS[.fraction]]`: whole seconds since midnight, and the fraction as a count of
    /// `1 / scale` second (up to microseconds; further digits are dropped).
    mutating func time() -> (seconds: Int64, fraction: Int64, scale: Int64)? {
        guard let hour = digits(2), take(":"), let minute = digits(2), hour < 24, minute < 60 else { return nil }
        let seconds = hour * 3600 + minute * 60
        guard take(":") else { return (seconds, 0, 1) }
        guard let second = digits(2), second < 60 else { return nil }
        guard take(".") else { return (seconds + second, 0, 1) }
        var fraction: Int64 = 0
        var scale: Int64 = 1
        var count = 0
        while let digit = digits(1) {
            count += 1
            if scale < 1_000_000 {
                fraction = fraction * 10 + digit
                scale *= 10
            }
        }
        return count > 0 ? (seconds + second, fraction, scale) : nil
    }

    /// The offset east of UTC in seconds: 0 for none or `Z`, `±HH:MM` otherwise; `nil` when
    /// something else follows the time.
    mutating func zone() -> Int64? {
        while take(" ") {}
        if take("Z") || take("z") { return 0 }
        let sign: Int64
        if take("+") {
            sign = 1
        } else if take("-") {
            sign = -1
        } else {
            return 0
        }
        guard let hours = digits(2), take(":"), let minutes = digits(2), hours <= 14, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}
