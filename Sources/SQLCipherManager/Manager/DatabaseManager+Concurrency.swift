import Foundation

// MARK: - Concurrent reads, and async access

extension DatabaseManager {
    /// Runs `body` in a read transaction — one consistent snapshot of the database, however
    /// many statements it runs — and returns its result.
    ///
    /// On a WAL database (``DatabaseConfiguration/journalMode``) it runs on one of up to
    /// ``DatabaseConfiguration/maximumReaderCount`` read-only connections (`sqlite3_open_v2`
    /// with `SQLITE_OPEN_READONLY`, keyed with the derived key: no PBKDF2), concurrently with
    /// other reads and with the writer: it neither waits for a write nor makes one wait. In
    /// rollback-journal mode it runs on the writer, under the manager's lock.
    ///
    /// `body` must not call the manager (a close or key change waits for running reads).
    /// A close, reopen or key change waits for the reads in progress, then closes their
    /// connections; later reads open new ones, with the new key.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try read(interruptible: nil, body)
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) on the writer, under the
    /// manager's lock: commit on return, rollback on throw.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try transaction(.immediate, body)
    }

    /// ``read(_:)-9gdfk`` from async code. The work runs on a thread of the manager's own, never
    /// blocking the cooperative thread pool. Cancelling the Task interrupts the running
    /// statement (`sqlite3_interrupt`) and throws `CancellationError`.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await run(on: readQueue) { handle in try self.read(interruptible: handle, body) }
    }

    /// ``write(_:)-83ygs`` from async code, on the manager's own writer thread; cancellation as for
    /// ``read(_:)-9v2la``: the transaction is rolled back.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await run(on: writeQueue) { handle in
            try self.withDatabase { db in
                try handle.run(on: db.connection) { try db.transaction(.immediate, body) }
            }
        }
    }

    // MARK: - Implementation

    private func read<T>(interruptible handle: InterruptHandle?, _ body: (Database) throws -> T) throws -> T {
        guard let lease = try readers.acquire() else {
            // Not WAL: the writer, in a read transaction.
            return try withDatabase { db in
                try (handle?.run(on: db.connection) { try db.transaction(.deferred, body) } ?? db.transaction(.deferred, body))
            }
        }
        defer { readers.release(lease) }
        let db = Database(connection: lease.connection)
        do {
            return try
                (handle?.run(on: lease.connection) { try db.transaction(.deferred, body) }
                ?? db.transaction(.deferred, body))
        } catch let error as SQLiteError {
            if lease.connection.fileWasReplaced { throw DatabaseManagerError.databaseReplaced(path: lease.connection.path) }
            throw DatabaseManagerError.translatingQueryError(error, path: lease.connection.path)
        }
    }

    /// Tells the reader pool how to open readers for the connection just installed:
    /// read-only, keyed with the derived key (or the cached key); not at all unless the
    /// database is in WAL mode. Called under the lock wherever a writer connection is installed.
    func configureReaders() {
        guard let db = database, let key = derivedKey?.rawKey ?? cachedKey,
            (try? db.scalar(String.self, "PRAGMA journal_mode"))?.lowercased() == "wal"
        else {
            readers.configure(nil)
            return
        }
        let path = db.connection.path
        let configuration = configuration
        readers.configure(
            ReaderPool.Opening(
                open: { try Self.connect(path: path, mode: .readOnly, key: key, configuration: configuration) },
                maximum: configuration.maximumReaderCount))
    }

    private func run<T: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable (InterruptHandle) throws -> T
    ) async throws -> T {
        let handle = InterruptHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(with: Result { try work(handle) }) }
            }
        } onCancel: {
            handle.interrupt()
        }
    }
}
