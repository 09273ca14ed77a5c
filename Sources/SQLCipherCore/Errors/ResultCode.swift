// MARK: - ResultCode

/// A SQLite result code, primary or extended, as returned by the C API
/// (`sqlite3_extended_errcode`).
///
/// Primary codes match their extended codes with `~=`, so
/// `case ResultCode.notADatabase:` matches any error whose primary code is 26.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw C value (`SQLITE_*`).
    public let rawValue: Int32

    /// Creates a result code from its raw C value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary result code: the low 8 bits of an extended code.
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// The raw C value, as SQLite's documentation writes it (`26`).
    public var description: String { "\(rawValue)" }

    /// Matches a primary code against any of its extended codes.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.rawValue == pattern.primary.rawValue
            ? pattern == code.primary
            : pattern == code
    }
}

// MARK: - Named codes

extension ResultCode {
    /// `SQLITE_OK` (0).
    public static let ok = ResultCode(rawValue: 0)
    /// `SQLITE_ERROR` (1): generic SQL error.
    public static let error = ResultCode(rawValue: 1)
    /// `SQLITE_PERM` (3): access permission denied.
    public static let permission = ResultCode(rawValue: 3)
    /// `SQLITE_ABORT` (4).
    public static let abort = ResultCode(rawValue: 4)
    /// `SQLITE_BUSY` (5): the database file is locked.
    public static let busy = ResultCode(rawValue: 5)
    /// `SQLITE_LOCKED` (6): a table in the database is locked.
    public static let locked = ResultCode(rawValue: 6)
    /// `SQLITE_NOMEM` (7).
    public static let noMemory = ResultCode(rawValue: 7)
    /// `SQLITE_READONLY` (8): attempt to write a read-only database.
    public static let readOnly = ResultCode(rawValue: 8)
    /// `SQLITE_INTERRUPT` (9).
    public static let interrupt = ResultCode(rawValue: 9)
    /// `SQLITE_IOERR` (10): disk I/O error.
    public static let ioError = ResultCode(rawValue: 10)
    /// `SQLITE_CORRUPT` (11): the database disk image is malformed (with SQLCipher: an HMAC check failed).
    public static let corrupt = ResultCode(rawValue: 11)
    /// `SQLITE_NOTFOUND` (12); the query layer also uses it for a required row the query did not return.
    public static let notFound = ResultCode(rawValue: 12)
    /// `SQLITE_FULL` (13): the disk or the file size limit is full.
    public static let full = ResultCode(rawValue: 13)
    /// `SQLITE_CANTOPEN` (14): unable to open the database file.
    public static let cantOpen = ResultCode(rawValue: 14)
    /// `SQLITE_CONSTRAINT` (19).
    public static let constraint = ResultCode(rawValue: 19)
    /// `SQLITE_MISMATCH` (20): data type mismatch; the query layer also uses it for a column
    /// whose value cannot be read as the Swift type asked for.
    public static let mismatch = ResultCode(rawValue: 20)
    /// `SQLITE_MISUSE` (21): the library used incorrectly (for example a closed database).
    public static let misuse = ResultCode(rawValue: 21)
    /// `SQLITE_AUTH` (23).
    public static let auth = ResultCode(rawValue: 23)
    /// `SQLITE_RANGE` (25): bind index out of range.
    public static let range = ResultCode(rawValue: 25)
    /// `SQLITE_NOTADB` (26): file is not a database — with SQLCipher also a wrong key or wrong cipher settings.
    public static let notADatabase = ResultCode(rawValue: 26)
}
