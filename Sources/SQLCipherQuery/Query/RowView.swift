import Foundation
import SQLCipherCore

// MARK: - RowView

/// The current row of a running statement, read in place (`sqlite3_column_*`) without copying
/// the whole row into a ``Row``: what ``Database/forEachRow(_:arguments:_:)`` hands to its
/// closure and ``RowCursor/next()`` returns. Its getters are ``Row``'s, with the same results.
///
/// ```swift
/// try db.forEachRow("SELECT id, title FROM note") { row in
///     titles[row.int64(0)] = row.text(1)
/// }
/// ```
///
/// A view is valid until its statement steps again (the next row, the end of the rows, the
/// database's close). A view read after that, or with a column index the row does not have,
/// stops the program with a message (a precondition, as for an array index out of range)
/// instead of reading another row or memory SQLite has freed. To keep a row, copy it:
/// ``row`` is a ``Row``.
public struct RowView {
    @usableFromInline let liveStatement: Statement
    /// The statement's ``Statement/generation`` at the step that produced this row.
    @usableFromInline package let generation: UInt64
    /// The number of columns (`sqlite3_column_count`, read once per statement run).
    public let count: Int
    /// The cursor that stepped this row, kept alive by it: a row of a temporary cursor
    /// (`try db.fetchCursor(sql).next()?.text(0)`) stays its cursor's current row.
    private let cursor: RowCursor?

    /// The statement's current row; `count` is its column count, `cursor` the one that
    /// stepped it, if any.
    package init(statement: Statement, count: Int, cursor: RowCursor? = nil) {
        liveStatement = statement
        generation = statement.generation
        self.count = count
        self.cursor = cursor
    }

    /// The statement and the index as SQLite takes it, once the row is known to be the
    /// statement's current step and `index` in range. Inlined into the caller with the typed
    /// getters: one load and two comparisons per read.
    @inlinable @inline(__always)
    func checked(_ index: Int) -> (Statement, Int32) {
        let statement = liveStatement
        if statement.generation != generation || UInt(bitPattern: index) >= UInt(bitPattern: count) {
            misuse(at: index)
        }
        return (statement, Int32(truncatingIfNeeded: index))
    }

    /// Stops the program: a read of a row that is no longer current, or of a missing column.
    @usableFromInline
    func misuse(at index: Int) -> Never {
        if liveStatement.isFinalized {
            preconditionFailure("A RowView was used after its database closed; read rows inside the closure, or keep `row` (a Row copy)")
        }
        if liveStatement.generation != generation {
            preconditionFailure(
                "A RowView was used after its statement moved on (the next row, or the end of the rows); "
                    + "read what you need before the next step, or keep `row` (a Row copy)")
        }
        preconditionFailure("RowView index \(index) out of range: the row has \(count) columns")
    }

    /// The column names, in select order.
    public var columnNames: [String] { currentStatement().currentColumnNames() }

    // MARK: - Typed getters

    /// `true` when the column is NULL.
    @inlinable
    public func isNull(_ index: Int) -> Bool {
        let (statement, column) = checked(index)
        return statement.isNull(at: column)
    }

    /// The column as a 64-bit integer, as SQLite converts it (`sqlite3_column_int64`): NULL is
    /// 0, a REAL is truncated, a TEXT gives its leading integer.
    @inlinable
    public func int64(_ index: Int) -> Int64 {
        let (statement, column) = checked(index)
        return statement.int64(at: column)
    }

    /// The column as a Double, as SQLite converts it (`sqlite3_column_double`): NULL is 0.0.
    @inlinable
    public func double(_ index: Int) -> Double {
        let (statement, column) = checked(index)
        return statement.double(at: column)
    }

    /// The column as text, as SQLite converts it (`sqlite3_column_text`), or `nil` for NULL.
    @inlinable
    public func text(_ index: Int) -> String? {
        let (statement, column) = checked(index)
        return statement.text(at: column)
    }

    /// Calls `body` with the column's text as UTF-8 bytes read in place, without creating a
    /// `String` (no allocation, no validation); an empty buffer for NULL. The bytes are valid
    /// only during the call.
    @inlinable
    public func withUTF8<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let (statement, column) = checked(index)
        return try statement.withText(at: column, body)
    }

    /// The column's value with its storage class.
    public subscript(index: Int) -> DatabaseValue {
        let (statement, column) = checked(index)
        return statement.value(at: column)
    }

    /// The value of the first column with this name, or `nil` when there is no such column.
    public subscript(name: String) -> DatabaseValue? {
        columnNames.firstIndex(of: name).map { self[$0] }
    }

    /// The column as a Swift type, or `nil` for NULL or an unconvertible value.
    public func value<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) -> T? {
        T(databaseValue: self[index])
    }

    /// The value of a named column as a Swift type, or `nil`.
    public func value<T: DatabaseValueConvertible>(_ name: String, as type: T.Type = T.self) -> T? {
        self[name].flatMap { T(databaseValue: $0) }
    }

    /// The values, in select order.
    public var values: [DatabaseValue] { (0..<count).map { self[$0] } }

    /// A copy of the whole row that outlives the step.
    public var row: Row { currentStatement().row() }

    /// The statement, once the row is known to be its current step.
    private func currentStatement() -> Statement {
        if liveStatement.generation != generation { misuse(at: 0) }
        return liveStatement
    }
}

// A row view reads a non-thread-safe statement in place.
@available(*, unavailable)
extension RowView: Sendable {}
