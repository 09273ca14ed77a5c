// MARK: - The writer, outside a transaction
import SQLCipherCore
import SQLCipherQuery

extension DatabaseManager {
    /// Runs `body` with the open database (the writer) outside any transaction, holding the
    /// manager's lock for its whole duration so no other thread interleaves statements: for what
    /// SQLite refuses inside one (`VACUUM`, `PRAGMA journal_mode`, a script with its own
    /// `BEGIN`…`COMMIT`); other writes go through ``writeSync(_:)`` or ``write(_:)``. Nested in another writer closure it
    /// runs at once; inside a `read` closure it throws ``DatabaseManagerError/reentrantCall(_:inside:)``.
    ///
    /// - Throws: ``DatabaseManagerError/notOpen`` when closed, or what `body` throws
    ///   (statements throw ``SQLiteError``), except that a first page that no longer decrypts
    ///   with this manager's key (`SQLITE_NOTADB`, and the key fails again on a fresh read:
    ///   another program re-keyed the file in place) becomes
    ///   ``DatabaseManagerError/keyChanged(path:)`` (the connection is closed), a damaged page
    ///   (`SQLITE_CORRUPT`) ``DatabaseManagerError/corrupt(path:underlying:)`` and a lock
    ///   held too long (`SQLITE_BUSY`, `SQLITE_LOCKED`) ``DatabaseManagerError/busy(path:underlying:)``,
    ///   with the path, as at open. The ``SQLiteError`` stays in `underlying`.
    public func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try writer { try body($0) }
    }

    /// ``withDatabase(_:)`` for the manager's own calls, `call` naming the public one in a
    /// ``DatabaseManagerError/reentrantCall(_:inside:)``: refused inside a read closure (it
    /// would wait for the lock while a close may be waiting for that read), nested inside a
    /// writer closure (the lock is recursive).
    func writer<T>(_ call: String = #function, _ body: (Database) throws -> T) throws -> T {
        if case .reader = lock.innermostScope {
            throw DatabaseManagerError.reentrantCall(call, inside: "read")
        }
        return try lock.within(.writer, close: close(forgettingKey:)) { try withWriterConnection(body) }
    }

    /// The writer under the lock, its errors translated; no closure scope of its own.
    func withWriterConnection<T>(_ body: (Database) throws -> T) throws -> T {
        lock.lock()
        defer { unlockDeliveringEvents() }
        let db = try requireDatabase()
        defer { reportCommits(of: db) }
        do {
            return try body(db)
        } catch let error as SQLiteError {
            if let failure = pageFailureError(of: db, after: error) { throw failure }
            throw DatabaseManagerError.translatingQueryError(error, path: databasePath ?? "")
        }
    }

    /// Where the manager's own single reads (``schemaVersion``) run: inside a read closure, on its connection; on a thread that holds the writer (a
    /// writer closure, a migrator, a delegate callback), on the writer, seeing its uncommitted
    /// changes; otherwise, on a WAL database, on a reader connection of the pool in autocommit
    /// (one snapshot per call, never waiting behind a write), else on the writer.
    func query<T>(_ body: (Database) throws -> T) throws -> T {
        switch lock.innermostScope {
        case .reader(let db?): return try onReader(db, body)
        case .reader(nil), .writer: return try withWriterConnection(body)
        case nil: break
        }
        // A reader that cannot be opened (the key changed under the manager…): the writer says why.
        if !lock.isHeldByCurrentThread, let lease = try? readers.acquire() {
            do {
                defer { readers.release(lease) }
                return try body(Database(connection: lease.connection))
            } catch let error as SQLiteError where error.code == .notADatabase {
                // Page 1 no longer decrypts: the writer finds out whether the key changed
                // (keyChanged, the manager closed) or the file is damaged.
            } catch let error as SQLiteError {
                throw DatabaseManagerError.translatingQueryError(error, path: lease.connection.path)
            }
        }
        return try withWriterConnection(body)
    }

    /// Runs `body` in a transaction (see ``Database/transaction(_:_:)``): commit on return,
    /// rollback on throw, savepoints when nested. The blocking form, for synchronous code; async
    /// code calls ``transaction(_:_:)``.
    @available(*, noasync, message: "blocks the calling thread: use try await manager.transaction")
    public func transactionSync<T>(
        _ kind: Database.TransactionKind = .deferred, _ body: (Database) throws -> T
    ) throws -> T {
        try writer { try $0.transaction(kind, body) }
    }
}
