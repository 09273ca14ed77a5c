import Foundation

// MARK: - SQLiteError

/// A failure reported by the SQLite / SQLCipher C library, or by the query layer around it.
///
/// Everything the query layer (``Database``, ``PreparedStatement``, ``Row``…) throws is an
/// `SQLiteError`. Besides the C library's own failures, the query layer itself reports:
/// `misuse` (21) for a ``Database`` or ``PreparedStatement`` used after its database was
/// closed or outside the closure that received it, and for an invalid argument; `range` (25)
/// for a wrong number of arguments, an unknown named parameter or a column that is not in the
/// result; `mismatch` (20) for a column whose value cannot be read as the type asked for;
/// `notFound` (12) for a required row the query did not return.
///
/// Every non-OK return code of the C API goes through one internal funnel that builds this
/// value from `sqlite3_extended_errcode` and `sqlite3_errmsg`. It carries the SQL text that
/// failed, but never a bound value or a key: keys reach SQLCipher through `sqlite3_key` or
/// bound parameters only.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
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

    /// The ``description``, so that `localizedDescription` says what failed.
    public var errorDescription: String? { description }
}

// MARK: - The query layer's own errors

extension SQLiteError {
    /// A ``Database`` or ``PreparedStatement`` used once its connection is closed: kept past the
    /// closure that received it and used after ``DatabaseManager/close(forgettingKey:)``. No C call is made.
    package static func databaseClosed(sql: String?) -> SQLiteError {
        SQLiteError(
            extendedCode: .misuse,
            message: "the database is closed: this Database (or statement) was kept after the closure that received it "
                + "and used after close(). Use it only inside withDatabase, transaction or a migrator",
            sql: sql)
    }
}
