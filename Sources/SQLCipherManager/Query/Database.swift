// MARK: - Database

/// A handle on the open database, valid only inside the closure that receives it
/// (``DatabaseManager/withDatabase(_:)``, ``DatabaseManager/transaction(_:_:)``, a
/// ``SchemaMigrator``). Do not keep it or pass it to another thread.
///
/// Statements are prepared once and cached (`sqlite3_prepare_v2`), arguments are bound
/// (`sqlite3_bind_*`), never pasted into SQL text.
public final class Database {
    let connection: Connection
    private var savepointDepth = 0

    init(connection: Connection) {
        self.connection = connection
    }

    // MARK: - Executing

    /// Runs one statement with bound arguments.
    ///
    /// ```swift
    /// try db.execute("INSERT INTO note(title, body) VALUES (?, ?)", "Hello", body)
    /// ```
    public func execute(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws {
        try execute(sql, values: arguments)
    }

    /// Runs one statement with bound arguments.
    public func execute(_ sql: String, arguments: [DatabaseValue]) throws {
        let statement = try connection.cachedStatement(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// The variadic calls' path: binds the Swift values directly, without a `[DatabaseValue]`.
    func execute(_ sql: String, values: [(any DatabaseValueConvertible)?]) throws {
        let statement = try connection.cachedStatement(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs a script of several statements separated by `;`, without arguments
    /// (the `sqlite3_exec` use case). SQLite's parser decides where each statement ends; to
    /// read the rows of each one, use ``forEachStatement(in:_:)``.
    public func executeScript(_ sql: String) throws {
        try connection.executeScript(sql)
    }

    // MARK: - Fetching

    /// Calls `body` for each row, without collecting them.
    public func forEachRow(
        _ sql: String, arguments: [DatabaseValue] = [], _ body: (Row) throws -> Void
    ) throws {
        let statement = try connection.cachedStatement(sql)
        // Reset even when `body` throws, so an abandoned read releases its lock.
        defer { statement.reset() }
        try statement.bind(arguments)
        let names = statement.columnNames
        while try statement.step() {
            try body(Row(columnNames: names, values: statement.rowValues()))
        }
    }

    /// Every row of a query.
    public func fetchAll(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> [Row] {
        try fetchAll(sql, arguments: arguments.map { $0?.databaseValue ?? .null })
    }

    /// Every row of a query.
    public func fetchAll(_ sql: String, arguments: [DatabaseValue]) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql, arguments: arguments) { rows.append($0) }
        return rows
    }

    /// The first row of a query, or `nil`.
    public func fetchOne(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> Row? {
        try fetchOne(sql, values: arguments)
    }

    /// The first row of a query, or `nil`.
    public func fetchOne(_ sql: String, arguments: [DatabaseValue]) throws -> Row? {
        let statement = try connection.cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return Row(columnNames: statement.columnNames, values: statement.rowValues())
    }

    /// The variadic calls' path: binds the Swift values directly, without a `[DatabaseValue]`.
    func fetchOne(_ sql: String, values: [(any DatabaseValueConvertible)?]) throws -> Row? {
        let statement = try connection.cachedStatement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return Row(columnNames: statement.columnNames, values: statement.rowValues())
    }

    /// The first column of the first row as a Swift type; `nil` for no row, NULL or an
    /// unconvertible value.
    public func scalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> T? {
        let row = try fetchOne(sql, values: arguments)
        return row.flatMap { $0.count > 0 ? $0.value(0, as: T.self) : nil }
    }

    // MARK: - State

    /// Rows changed by the last INSERT, UPDATE or DELETE: `sqlite3_changes`.
    public var changes: Int { connection.changes }

    /// The rowid of the last successful INSERT: `sqlite3_last_insert_rowid`.
    public var lastInsertRowID: Int64 { connection.lastInsertRowID }

    /// `true` inside a transaction: `!sqlite3_get_autocommit`.
    public var isInTransaction: Bool { !connection.isAutocommit }

    /// The schema version: `PRAGMA user_version`.
    public func schemaVersion() throws -> Int {
        try scalar(Int.self, "PRAGMA user_version") ?? 0
    }

    /// Sets the schema version: `PRAGMA user_version = N` (N ≥ 0).
    public func setSchemaVersion(_ version: Int) throws {
        guard version >= 0 else {
            throw DatabaseManagerError.invalidOption(name: "schemaVersion", reason: "must be 0 or more, got \(version)")
        }
        try execute("PRAGMA user_version = \(version)")
    }

    // MARK: - Transactions

    /// The kind of `BEGIN` for an outermost transaction.
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a transaction: `BEGIN`, then `COMMIT` on return or `ROLLBACK` on throw.
    /// A call inside another transaction uses a `SAVEPOINT`, so its own failure rolls back only
    /// its own work.
    public func transaction<T>(_ kind: TransactionKind = .deferred, _ body: (Database) throws -> T) throws -> T {
        if connection.isAutocommit {
            try execute("BEGIN \(kind.rawValue) TRANSACTION")
            do {
                let result = try body(self)
                try execute("COMMIT TRANSACTION")
                return result
            } catch {
                if !connection.isAutocommit { try? execute("ROLLBACK TRANSACTION") }
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
            if !connection.isAutocommit {
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
