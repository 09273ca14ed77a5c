// MARK: - RowCursor
import SQLCipherCore

/// The rows of a query, stepped one at a time (`sqlite3_step`) as you ask for them: the
/// natural way to read many rows without holding them all in memory.
///
/// ```swift
/// try manager.read { db in
///     let cursor = try db.fetchCursor("SELECT id, title FROM note WHERE score > ?", 10)
///     while let row = try cursor.next() {
///         titles[row.int64(0)] = row.text(1)
///     }
/// }
/// ```
///
/// Each row is a ``RowView`` of the statement's current step, read in place: typed getters
/// copy one column out, and nothing is copied for the columns you skip. It cannot be misused
/// into reading another row or freed memory: a row read after the cursor moved on (``next()``
/// again, the end of the rows, the database's close) stops the program with a message, as a
/// ``RowView`` does; copy what you keep, or the whole row with ``RowView/row``. Once the
/// database is closed, ``next()`` throws ``SQLiteError`` `misuse` and makes no C call.
///
/// A cursor is not a Swift `Sequence`, so `for row in cursor` does not compile: stepping can
/// fail (a busy or corrupt database, an interrupt), and `IteratorProtocol.next()` cannot throw;
/// a `Sequence` would have to end silently or stop the program on such an error. Swift's
/// throwing `for try … in` loop exists only for `AsyncSequence`, and an `async` cursor would let
/// a row cross a suspension point off the connection's thread. Walk it with
/// `while let row = try cursor.next() { … }` or ``forEach(_:)``, which end on the first error and
/// throw it.
///
/// The cursor steps its own statement: other calls on the same ``Database`` (even with the
/// same SQL, even another cursor) may run between two steps. Until the rows end (or the cursor
/// is released) the statement holds its read lock, so release an unfinished cursor before a
/// long wait. Like ``Database``, a cursor is valid only inside the closure that received the
/// database, on its thread.
public final class RowCursor {
    @usableFromInline let statement: Statement
    private let connection: Connection
    /// The number of result columns (`sqlite3_column_count`).
    public let count: Int
    private var names: [String]?
    private var isFinished = false
    private var hasStepped = false

    init(statement: Statement, connection: Connection) {
        self.statement = statement
        self.connection = connection
        count = statement.columnCount
    }

    deinit { connection.endLease(statement) }

    /// The SQL text.
    public var sql: String { statement.sql }

    /// The column names (`sqlite3_column_name`), read once after the first step.
    public var columnNames: [String] {
        if let names { return names }
        let read = statement.isFinalized ? [] : statement.columnNames
        if hasStepped, !statement.isFinalized { names = read }
        return read
    }

    // MARK: - Stepping

    /// Steps to the next row (`sqlite3_step`) and returns it, or `nil` after the last one (and
    /// on every later call). The row returned before is no longer valid.
    ///
    /// - Throws: ``SQLiteError`` for a failing step (the cursor then ends), `misuse` once the
    ///   database is closed.
    public func next() throws -> RowView? {
        if isFinished { return nil }
        guard !statement.isFinalized else { throw SQLiteError.databaseClosed(sql: statement.sql) }
        do {
            if try statement.step() {
                hasStepped = true
                return RowView(statement: statement, count: count, cursor: self)
            }
        } catch {
            finish()
            throw error
        }
        finish()
        return nil
    }

    /// Calls `body` with each remaining row, each valid only during its call.
    public func forEach(_ body: (RowView) throws -> Void) throws {
        while let row = try next() { try body(row) }
    }

    /// Ends the cursor now: its statement is reset (its read lock released) and later
    /// ``next()`` calls return `nil`. Releasing the cursor does the same.
    public func finish() {
        guard !isFinished else { return }
        isFinished = true
        connection.endLease(statement)
    }
}

// A cursor steps a non-thread-safe statement; it lives inside one closure on one thread.
@available(*, unavailable)
extension RowCursor: Sendable {}
