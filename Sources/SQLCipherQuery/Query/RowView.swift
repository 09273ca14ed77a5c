import Foundation
import SQLCipherCore

// MARK: - RowView

/// The current row of a running statement, read in place (`sqlite3_column_*`) without copying
/// the whole row into a ``Row``. Valid only inside the closure that receives it: a row view
/// kept past the database's close stops the program with a message (a precondition, as for an
/// index out of range) instead of reading the statement SQLite has freed.
///
/// ```swift
/// try db.forEachRowView("SELECT id, title FROM note") { row in
///     titles[row.int64(0)] = row.text(1)
/// }
/// ```
public struct RowView {
    @usableFromInline package let liveStatement: Statement

    package init(statement: Statement) { liveStatement = statement }

    /// The statement, once it is known not to be finalized (the connection closed): every
    /// column read goes through here, so none reaches freed memory. Inlined into the caller
    /// with the typed getters: one load and one comparison per read.
    @inlinable
    package var statement: Statement {
        precondition(
            !liveStatement.isFinalized,
            "A RowView was used after its database closed; read rows inside the closure, or keep `row` (a Row copy)")
        return liveStatement
    }

    /// The number of columns.
    public var count: Int { statement.columnCount }

    /// The column names.
    public var columnNames: [String] { statement.columnNames }

    /// `true` when the column is NULL.
    @inlinable
    public func isNull(_ index: Int) -> Bool { statement.isNull(at: Int32(index)) }

    /// The column as a 64-bit integer (SQLite's conversion: NULL is 0).
    @inlinable
    public func int64(_ index: Int) -> Int64 { statement.int64(at: Int32(index)) }

    /// The column as a Double (SQLite's conversion: NULL is 0.0).
    @inlinable
    public func double(_ index: Int) -> Double { statement.double(at: Int32(index)) }

    /// The column as text (``DatabaseValue/text(_:)``'s word), or `nil` for NULL.
    @inlinable
    public func text(_ index: Int) -> String? { statement.text(at: Int32(index)) }

    /// Calls `body` with the column's text as UTF-8 bytes read in place, without creating a
    /// `String` (no allocation, no validation); an empty buffer for NULL. The bytes are valid
    /// only during the call.
    @inlinable
    public func withUTF8<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try statement.withText(at: Int32(index), body)
    }

    /// The column's value with its storage class.
    public subscript(index: Int) -> DatabaseValue { statement.value(at: Int32(index)) }

    /// The column as a Swift type, or `nil` for NULL or an unconvertible value.
    public func value<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) -> T? {
        T(databaseValue: self[index])
    }

    /// A copy of the whole row that outlives the closure.
    public var row: Row { statement.row() }
}

// A row view reads a non-thread-safe statement in place.
@available(*, unavailable)
extension RowView: Sendable {}
