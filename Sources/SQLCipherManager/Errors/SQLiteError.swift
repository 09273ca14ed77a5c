// MARK: - SQLiteError

/// A failure reported by the SQLite / SQLCipher C library.
///
/// Every non-OK return code of the C API goes through one internal funnel that builds this
/// value from `sqlite3_extended_errcode` and `sqlite3_errmsg`. It carries the SQL text that
/// failed, but never a bound value or a key: keys reach SQLCipher through `sqlite3_key` or
/// bound parameters only.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (`sqlite3_extended_errcode`).
    public let extendedCode: ResultCode
    /// The message of `sqlite3_errmsg`, when there is one.
    public let message: String?
    /// The SQL statement that failed, when the failure came from a statement.
    public let sql: String?

    /// The primary result code (the low 8 bits of ``extendedCode``).
    public var code: ResultCode { extendedCode.primary }

    /// Creates an error value.
    public init(extendedCode: ResultCode, message: String?, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// A description in the form `SQLite error 26: file is not a database - while executing `…``.
    public var description: String {
        var text = "SQLite error \(extendedCode.rawValue)"
        if let message { text += ": \(message)" }
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
