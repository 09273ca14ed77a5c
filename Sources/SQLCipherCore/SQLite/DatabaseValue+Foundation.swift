import Foundation

// MARK: - Foundation values

extension Date: DatabaseValueConvertible {
    /// `.text("YYYY-MM-DD HH:MM:SS.SSS")` in UTC (`2023-11-14 22:13:20.000`), the milliseconds
    /// rounded: the text SQLite's date functions read and write (`datetime(x, 'subsec')`,
    /// `strftime('%Y-%m-%d %H:%M:%f')`), and what GRDB stores. Such texts sort in time order,
    /// and compare equal to `CURRENT_TIMESTAMP`'s `YYYY-MM-DD HH:MM:SS` only with the `.000`.
    public var databaseValue: DatabaseValue { .text(SQLiteDateText.format(self)) }

    /// Binds the text of `databaseValue` (`sqlite3_bind_text`).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(text: SQLiteDateText.format(self)) }

    /// Reads what SQLite's date functions accept as a time value, in UTC unless it says otherwise:
    /// - TEXT `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD HH:MM:SS.SSS`
    ///   (any number of fraction digits, read to the microsecond), each also with `T` between
    ///   the date and the time; `HH:MM`, `HH:MM:SS`, `HH:MM:SS.SSS` alone, on 2000-01-01; a time
    ///   may end with `Z` or a `+HH:MM` / `-HH:MM` offset from UTC. Spaces after it are ignored.
    /// - INTEGER or REAL: Unix time, seconds since 1970-01-01 00:00:00 UTC (what
    ///   `strftime('%s')` and `unixepoch()` give). Not seconds since 2001, Foundation's own
    ///   `Codable` form of a `Date`, and not a Julian day number.
    ///
    /// `nil` for anything else: NULL, a blob, other text (`'14/11/2023'`, `'now'`), an infinite
    /// or NaN REAL.
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .text(let text):
            guard let date = SQLiteDateText.parse(text) else { return nil }
            self = date
        case .integer(let seconds): self.init(timeIntervalSince1970: Double(seconds))
        case .real(let seconds):
            guard seconds.isFinite else { return nil }
            self.init(timeIntervalSince1970: seconds)
        case .blob, .null: return nil
        }
    }
}

extension UUID: DatabaseValueConvertible {
    /// `.blob` of the UUID's 16 bytes, in order (`X'E621E1F8C36C495A93FC0C247A3E6E5F'`), as
    /// GRDB stores it.
    public var databaseValue: DatabaseValue { .blob(bytes) }

    /// Binds the 16 bytes (`sqlite3_bind_blob`).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(blob: bytes) }

    /// A BLOB of exactly 16 bytes; or TEXT, the usual 36-character form
    /// (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, any case) or the same 32 hex digits without
    /// hyphens (what `hex(id)` gives). `nil` for anything else.
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .blob(let data):
            guard data.count == 16 else { return nil }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: data) }
            self.init(uuid: uuid)
        case .text(let text):
            guard let uuid = UUID(uuidString: text) ?? Self.fromHex(text) else { return nil }
            self = uuid
        default: return nil
        }
    }

    /// The 16 bytes.
    private var bytes: Data { withUnsafeBytes(of: uuid) { Data($0) } }

    /// 32 hex digits as a UUID, hyphens put back.
    private static func fromHex(_ text: String) -> UUID? {
        guard text.utf8.count == 32, text.allSatisfy(\.isHexDigit) else { return nil }
        var hex = Substring(text)
        let parts = [8, 4, 4, 4, 12].map { length in
            defer { hex = hex.dropFirst(length) }
            return hex.prefix(length)
        }
        return UUID(uuidString: parts.joined(separator: "-"))
    }
}

extension URL: DatabaseValueConvertible {
    /// `.text` of `absoluteString` (`https://example.com/a?b=c`, `file:///tmp/x`).
    public var databaseValue: DatabaseValue { .text(absoluteString) }

    /// Binds the text of `absoluteString` (`sqlite3_bind_text`).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(text: absoluteString) }

    /// TEXT that `URL(string:)` accepts; `nil` for anything else (an empty text included).
    public init?(databaseValue: DatabaseValue) {
        guard case .text(let text) = databaseValue, let url = URL(string: text) else { return nil }
        self = url
    }
}

extension Decimal: DatabaseValueConvertible {
    /// `.text` of the number in decimal with a `.` (`12.50` is `"12.5"`), every digit kept, as
    /// GRDB stores it: a REAL would round it to a Double. SQLite compares such texts as text,
    /// not as numbers; `CAST(x AS REAL)` for arithmetic in SQL.
    public var databaseValue: DatabaseValue { .text(description) }

    /// Binds the text of `databaseValue` (`sqlite3_bind_text`).
    public func bind(to binder: DatabaseValueBinder) throws { try binder.bind(text: description) }

    /// TEXT of a decimal number (`-12.5`, `3`, `1.5e3`; a `.` as separator, whatever the locale);
    /// an INTEGER exactly; a finite REAL through its shortest decimal form (`0.1` reads as
    /// `0.1`). `nil` for anything else.
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .text(let text):
            guard let value = Self.parse(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self = value
        case .integer(let value): self.init(value)
        case .real(let value):
            guard value.isFinite, let decimal = Self.parse(String(value)) else { return nil }
            self = decimal
        case .blob, .null: return nil
        }
    }

    /// `[+-]digits[.digits][(e|E)[+-]digits]`, the whole text, as a Decimal.
    private static func parse(_ text: String) -> Decimal? {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        func take(_ set: String) -> Bool {
            guard let first = bytes.first, set.utf8.contains(first) else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        _ = take("+-")
        var mantissa = digits()
        if take(".") { mantissa += digits() }
        guard mantissa > 0 else { return nil }
        if take("eE") {
            _ = take("+-")
            guard digits() > 0 else { return nil }
        }
        guard bytes.isEmpty else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}
