// MARK: - Database
import SQLCipherCore

/// A handle on the open database, valid only inside the closure that receives it
/// (``DatabaseManager/withDatabase(_:)``, ``DatabaseManager/transactionSync(_:_:)``, a
/// ``SchemaMigrator``). Do not keep it or pass it to another thread.
///
/// Statements are prepared once and cached (`sqlite3_prepare_v2`), arguments are bound
/// (`sqlite3_bind_*`), never pasted into SQL text.
///
/// A `Database` kept past its closure (`let db = try manager.withDatabase { $0 }`) and used
/// after ``DatabaseManager/close(forgettingKey:)`` makes no C call: every method throws ``SQLiteError`` with
/// code `misuse` (21) and a message that says so, and ``changes``, ``lastInsertRowID`` and
/// ``isInTransaction`` read 0 / `false`.
public final class Database {
    package let connection: Connection
    private var savepointDepth = 0

    package init(connection: Connection) {
        self.connection = connection
    }

    /// The connection, or ``SQLiteError`` `misuse` once it is closed: the check every entry
    /// point makes before it touches the C handle (one load of a stored `Bool`).
    @inline(__always)
    func liveConnection(_ sql: String? = nil) throws -> Connection {
        guard !connection.isClosed else { throw SQLiteError.databaseClosed(sql: sql) }
        return connection
    }

    // MARK: - Executing

    /// Runs one statement with its arguments as a ``StatementArguments``: an array literal in
    /// order (`nil` for NULL), a dictionary literal by name, or values built at run time.
    ///
    /// ```swift
    /// try db.execute("INSERT INTO note(title, body) VALUES (?, ?)", arguments: ["Hello", nil])
    /// try db.execute("DELETE FROM note WHERE id = :id", arguments: [":id": 3])
    /// ```
    ///
    /// With values whose types are known where you call, the typed `execute(_:_:)` binds
    /// them without boxing each one.
    ///
    /// - Throws: ``SQLiteError`` `range` when the arguments do not fit the parameters (see
    ///   ``StatementArguments``), `misuse` once the database is closed, and any error of the
    ///   statement.
    public func execute(_ sql: String, arguments: StatementArguments) throws {
        try run(sql, arguments)
    }

    /// Runs a script of several statements separated by `;`, without arguments
    /// (the `sqlite3_exec` use case). SQLite's parser decides where each statement ends; to
    /// read the rows of each one, use ``forEachStatement(in:_:)``.
    public func executeScript(_ sql: String) throws {
        try liveConnection(sql).executeScript(sql)
    }

    // MARK: - Fetching

    /// Every row of a query, its arguments as a ``StatementArguments`` (array or dictionary
    /// literal, or values built at run time).
    ///
    /// The rows share their column names and are packed side by side in blocks of up to
    /// 16 KiB (a row of more than 4 KiB of values gets one of its own), so that many rows cost
    /// few allocations; a kept row keeps its block alive. The connection keeps up to 32 MiB of
    /// these blocks until it closes and reuses them once no row holds them, so repeated large
    /// reads do not fault the same memory in again.
    public func fetchAll(_ sql: String, arguments: StatementArguments) throws -> [Row] {
        try query(sql, arguments) { statement in try allRows(of: statement) }
    }

    /// The first row of a query, or `nil`, its arguments as a ``StatementArguments``.
    public func fetchOne(_ sql: String, arguments: StatementArguments) throws -> Row? {
        try query(sql, arguments) { statement in
            guard try statement.step() else { return nil }
            return statement.row()
        }
    }

    /// The first column of the first row as a Swift type, its arguments as a
    /// ``StatementArguments``; `nil` for no row, NULL or an unconvertible value.
    /// ``decodeScalar(_:_:arguments:)`` says which of them instead.
    public func scalar<T: DatabaseValueConvertible>(_ type: T.Type, _ sql: String, arguments: StatementArguments) throws -> T? {
        let row = try fetchOne(sql, arguments: arguments)
        return row.flatMap { $0.count > 0 ? $0.value(0, as: T.self) : nil }
    }

    /// Steps a bound statement to its end, copying every row into one ``RowArena`` with the
    /// names of the first step (a statement re-prepared by it has its new ones). The caller
    /// resets the statement.
    @usableFromInline
    func allRows(of statement: Statement) throws -> [Row] {
        var rows: [Row] = []
        guard try statement.step() else { return rows }
        var arena = RowArena(names: statement.currentColumnNames(), pool: connection.rowBlocks)
        repeat {
            rows.append(Row(storage: statement.rowStorage(in: &arena)))
        } while try statement.step()
        return rows
    }

    // MARK: - State

    /// Rows changed by the last INSERT, UPDATE or DELETE: `sqlite3_changes` (0 once closed).
    public var changes: Int { connection.isClosed ? 0 : connection.changes }

    /// The rowid of the last successful INSERT: `sqlite3_last_insert_rowid` (0 once closed).
    public var lastInsertRowID: Int64 { connection.isClosed ? 0 : connection.lastInsertRowID }

    /// `true` inside a transaction: `!sqlite3_get_autocommit` (`false` once closed).
    public var isInTransaction: Bool { !connection.isClosed && !connection.isAutocommit }

    /// The schema version: `PRAGMA user_version` — a throwing property, as
    /// ``DatabaseManager/schemaVersion`` is.
    public var schemaVersion: Int {
        get throws { try scalar(Int.self, "PRAGMA user_version") ?? 0 }
    }

    /// Sets the schema version: `PRAGMA user_version = N` (N ≥ 0).
    ///
    /// - Throws: ``SQLiteError`` `misuse` for a negative version, nothing written.
    public func setSchemaVersion(_ version: Int) throws {
        guard version >= 0 else {
            throw SQLiteError(
                extendedCode: .misuse, message: "the schema version must be 0 or more, got \(version)",
                sql: "PRAGMA user_version")
        }
        try execute("PRAGMA user_version = \(version)")
    }

    // MARK: - Transactions

    /// The kind of `BEGIN` for an outermost transaction.
    public enum TransactionKind: String, Sendable {
        /// `BEGIN DEFERRED`: locks are taken by the first read or write (SQLite's default).
        case deferred = "DEFERRED"
        /// `BEGIN IMMEDIATE`: takes the write lock at once, so the transaction's first write
        /// never fails with `SQLITE_BUSY` after its reads.
        case immediate = "IMMEDIATE"
        /// `BEGIN EXCLUSIVE`: takes the write lock at once and, in rollback-journal mode, keeps
        /// readers out until the commit.
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a transaction: `BEGIN`, then `COMMIT` on return or `ROLLBACK` on throw.
    /// A call inside another transaction uses a `SAVEPOINT`, so its own failure rolls back only
    /// its own work.
    public func transaction<T>(_ kind: TransactionKind = .deferred, _ body: (Database) throws -> T) throws -> T {
        if try liveConnection().isAutocommit {
            try execute("BEGIN \(kind.rawValue) TRANSACTION")
            do {
                let result = try body(self)
                try execute("COMMIT TRANSACTION")
                return result
            } catch {
                if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
                throw error
            }
        }
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "scm_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body(self)
            try execute("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            if isInTransaction {
                try? execute("ROLLBACK TO SAVEPOINT \(name)")
                try? execute("RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
    }
}

// A Database wraps a non-thread-safe connection; it lives inside one closure on one thread.
@available(*, unavailable)
extension Database: Sendable {}
