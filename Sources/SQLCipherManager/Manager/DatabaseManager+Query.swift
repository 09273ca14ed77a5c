// MARK: - Queries

extension DatabaseManager {
    /// Runs `body` with the open database, holding the manager's lock for its whole duration so
    /// no other thread interleaves statements.
    ///
    /// - Throws: ``DatabaseManagerError/notOpen`` when closed,
    ///   ``DatabaseManagerError/databaseReplaced(path:)`` when another program re-encrypted and
    ///   replaced the file under this connection (a replaced file is retired by the program
    ///   that replaced it, so the next statement here fails; only then is the file's identity
    ///   checked, one `stat`, so a call that succeeds costs nothing extra), or what `body` throws
    ///   (statements throw ``SQLiteError``), except that a damaged page (`SQLITE_CORRUPT`,
    ///   `SQLITE_NOTADB`) becomes ``DatabaseManagerError/corrupt(path:underlying:)`` and a lock
    ///   held too long (`SQLITE_BUSY`, `SQLITE_LOCKED`) ``DatabaseManagerError/busy(path:underlying:)``,
    ///   with the path, as at open. The ``SQLiteError`` stays in `underlying`.
    public func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try locked {
            let db = try requireDatabase()
            do {
                return try body(db)
            } catch let error as SQLiteError {
                if let replaced = replacementError(of: db) { throw replaced }
                throw DatabaseManagerError.translatingQueryError(error, path: databasePath ?? "")
            }
        }
    }

    /// Runs `body` in a transaction (see ``Database/transaction(_:_:)``): commit on return,
    /// rollback on throw, savepoints when nested.
    public func transaction<T>(
        _ kind: Database.TransactionKind = .deferred, _ body: (Database) throws -> T
    ) throws -> T {
        try withDatabase { try $0.transaction(kind, body) }
    }

    /// Runs one statement with bound arguments.
    public func execute(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws {
        try withDatabase { try $0.execute(sql, values: arguments) }
    }

    /// Runs a script of several statements, without arguments.
    public func executeScript(_ sql: String) throws {
        try withDatabase { try $0.executeScript(sql) }
    }

    /// Every row of a query.
    public func fetchAll(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> [Row] {
        let values = arguments.map { $0?.databaseValue ?? .null }
        return try withDatabase { try $0.fetchAll(sql, arguments: values) }
    }

    /// The first row of a query, or `nil`.
    public func fetchOne(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> Row? {
        try withDatabase { try $0.fetchOne(sql, values: arguments) }
    }

    /// The first column of the first row as a Swift type, or `nil`.
    public func scalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> T? {
        try withDatabase { try $0.fetchOne(sql, values: arguments).flatMap { $0.value(0, as: T.self) } }
    }
}
