import Foundation
import SQLCipherCore

// MARK: - CursorRow

/// The current row of a ``RowCursor``: a view of the statement's current step, read in place
/// (`sqlite3_column_*`).
///
/// A row is valid until the cursor steps again. Every getter checks it first, and throws
/// ``SQLiteError`` `misuse` once the cursor has moved on or the database is closed (no C call is
/// made then), `range` for a column index the row does not have. To keep a row, copy it:
/// ``row`` is a ``Row`` that outlives the cursor.
public struct CursorRow {
    @usableFromInline package let cursor: RowCursor
    @usableFromInline package let generation: UInt64

    /// The number of columns.
    public var count: Int { cursor.count }

    /// The column names, in select order (`sqlite3_column_name`, read once per cursor).
    public var columnNames: [String] { cursor.columnNames }

    /// The statement, after checking that this row is still its current step and that the
    /// index is in range (one unsigned comparison), and the index as SQLite takes it. Inlined
    /// into the caller with the typed getters: one load and three comparisons per read.
    @inlinable @inline(__always)
    package func checked(_ index: Int) throws -> (Statement, Int32) {
        let statement = cursor.statement
        guard statement.generation == generation, UInt(bitPattern: index) < UInt(bitPattern: cursor.count) else {
            throw failure(at: index)
        }
        return (statement, Int32(truncatingIfNeeded: index))
    }

    /// Why ``checked(_:)`` refused: `misuse` for a row no longer current (or a closed
    /// database), else `range`.
    @usableFromInline
    package func failure(at index: Int) -> SQLiteError {
        let statement = cursor.statement
        guard statement.generation == generation else { return notCurrent(statement) }
        return columns(statement).cannotFind(index)
    }

    // MARK: - Typed getters

    /// `true` when the column is NULL (`sqlite3_column_type`).
    @inlinable
    public func isNull(_ index: Int) throws -> Bool {
        let (statement, column) = try checked(index)
        return statement.isNull(at: column)
    }

    /// The column as a 64-bit integer (`sqlite3_column_int64`, SQLite's conversion: NULL is 0).
    @inlinable
    public func int64(_ index: Int) throws -> Int64 {
        let (statement, column) = try checked(index)
        return statement.int64(at: column)
    }

    /// The column as a Double (`sqlite3_column_double`, SQLite's conversion: NULL is 0.0).
    @inlinable
    public func double(_ index: Int) throws -> Double {
        let (statement, column) = try checked(index)
        return statement.double(at: column)
    }

    /// The column as text (`sqlite3_column_text`), or `nil` for NULL.
    @inlinable
    public func text(_ index: Int) throws -> String? {
        let (statement, column) = try checked(index)
        return statement.text(at: column)
    }

    /// Calls `body` with the column's text as UTF-8 bytes read in place (`sqlite3_column_text`),
    /// without creating a `String`; an empty buffer for NULL. The bytes are valid only during
    /// the call.
    @inlinable
    public func withUTF8<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R {
        let (statement, column) = try checked(index)
        return try statement.withText(at: column, body)
    }

    /// The column's value with its storage class (`sqlite3_column_type`, then the matching
    /// `sqlite3_column_*`).
    public subscript(index: Int) -> DatabaseValue {
        get throws {
            let (statement, column) = try checked(index)
            return statement.value(at: column)
        }
    }

    /// The column as a Swift type, or `nil` for NULL or an unconvertible value.
    public func value<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T? {
        T(databaseValue: try self[index])
    }

    /// The column as a `T`, or an error that says which column and why, as
    /// ``Row/decode(_:at:)``: `mismatch` for NULL (read `T?` to accept it) or a value that is
    /// not a `T`.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, at index: Int) throws -> T {
        let (statement, column) = try checked(index)
        let value = statement.value(at: column)
        if let result = T(databaseValue: value) { return result }
        throw columns(statement).cannotRead(value, as: "\(T.self)", at: index)
    }

    /// The column named `name` as a `T`; errors as ``decode(_:at:)``, `range` when no column has
    /// that name.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, column name: String) throws -> T {
        try decode(type, at: try columns(checkedStatement()).checkedIndex(named: name))
    }

    /// The row as a `Decodable` type: see ``Row/decode(_:)``.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let columns = try columns(checkedStatement())
        return try RowDecoder.decode(type, from: columns, oneValue: RowDecoder<StatementColumns>.readsOneValue(type))
    }

    /// A copy of the whole row, valid after the cursor moves on.
    public var row: Row {
        get throws {
            let statement = try checkedStatement()
            return Row(storage: statement.rowStorage(names: cursor.columnNames))
        }
    }

    // MARK: - Checks

    private func checkedStatement() throws -> Statement {
        let statement = cursor.statement
        guard statement.generation == generation else { throw notCurrent(statement) }
        return statement
    }

    private func columns(_ statement: Statement) -> StatementColumns {
        StatementColumns(statement: statement, columnNames: cursor.columnNames)
    }

    private func notCurrent(_ statement: Statement) -> SQLiteError {
        statement.isFinalized ? .databaseClosed(sql: statement.sql) : .rowNotCurrent(sql: statement.sql)
    }
}

// A cursor row reads a non-thread-safe statement in place.
@available(*, unavailable)
extension CursorRow: Sendable {}

extension SQLiteError {
    /// A ``CursorRow`` read after its ``RowCursor`` stepped again or ended. No C call is made.
    package static func rowNotCurrent(sql: String?) -> SQLiteError {
        SQLiteError(
            extendedCode: .misuse,
            message: "this row is no longer current: its cursor has moved to the next row or ended. "
                + "Read what you need before calling next() again, or keep a copy (row.row)",
            sql: sql)
    }
}
