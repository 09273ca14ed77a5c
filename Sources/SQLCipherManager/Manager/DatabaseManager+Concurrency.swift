import Foundation
import SQLCipherCore
import SQLCipherQuery

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
    /// Inside `body`, the manager's queries (`fetchAll`, `scalar`, a nested `read`…) run on the
    /// same connection and snapshot; a write, a key change or an open throws
    /// ``DatabaseManagerError/reentrantCall(_:inside:)`` (it would wait for this read to end);
    /// ``close(forgettingKey:)`` waits until `body` returns. Called inside a `write` closure, it reads on the
    /// writer and sees the write's uncommitted changes. After another program re-keyed the
    /// file, a read throws ``DatabaseManagerError/keyChanged(path:)``.
    ///
    /// A close, reopen or key change waits for the reads in progress, then closes their
    /// connections; later reads open new ones, with the new key.
    ///
    /// This is the blocking form, for synchronous code; async code calls ``read(_:)``. The two
    /// have different names because in top-level code (a `main.swift` with `await`) Swift's
    /// overload ranking treats the context as synchronous and would pick the blocking one.
    @available(*, noasync, message: "blocks the calling thread: use try await manager.read")
    public func readSync<T>(_ body: (Database) throws -> T) throws -> T {
        try read(interruptible: nil, body)
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) on the writer, under the
    /// manager's lock: commit on return, rollback on throw. Nested in another `write` or
    /// `transaction` it is a savepoint; inside a `read` it throws
    /// ``DatabaseManagerError/reentrantCall(_:inside:)``.
    /// The blocking form, for synchronous code; async code calls ``write(_:)``.
    @available(*, noasync, message: "blocks the calling thread: use try await manager.write")
    public func writeSync<T>(_ body: (Database) throws -> T) throws -> T {
        try withDatabase { try $0.transaction(.immediate, body) }
    }

    /// ``readSync(_:)`` from async code. The work runs on a thread of the manager's own (up to
    /// one per reader connection), never on a thread of the cooperative pool nor a Dispatch
    /// queue. Cancelling the Task interrupts the running statement (`sqlite3_interrupt`), or
    /// takes the read out of the queue if it has not started, and throws `CancellationError`.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await run(on: readExecutor, threads: readers.maximumReaders) { handle in try self.read(interruptible: handle, body) }
    }

    /// ``writeSync(_:)`` from async code, on the manager's own writer thread; cancellation as for
    /// ``read(_:)``: the transaction is rolled back.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await transaction(.immediate, body)
    }

    /// ``transactionSync(_:_:)`` from async code, on the manager's own writer thread; cancellation
    /// as for ``read(_:)``: the transaction is rolled back.
    public func transaction<T: Sendable>(
        _ kind: Database.TransactionKind = .deferred, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await run(on: writeExecutor, threads: 1) { handle in
            try self.withDatabase { db in
                try handle.run(on: db.connection) { try db.transaction(kind, body) }
            }
        }
    }

    // MARK: - Implementation

    func read<T>(interruptible handle: InterruptHandle?, _ body: (Database) throws -> T) throws -> T {
        if case .reader(let db?) = lock.innermostScope {
            // Nested: the same connection, already in its read transaction.
            return try body(db)
        }
        let onWriter = lock.isHeldByCurrentThread
        return try lock.within(.reader(nil), close: close(forgettingKey:)) {
            guard !onWriter, let lease = try readers.acquire() else {
                // Not WAL, or inside a write: the writer, in a read transaction (a savepoint when nested).
                return try withWriterConnection { db in
                    lock.settle(.reader(db))
                    return try interruptible(handle, db) { try db.transaction(.deferred, body) }
                }
            }
            defer { readers.release(lease) }
            let db = Database(connection: lease.connection)
            lock.settle(.reader(db))
            return try onReader(db) { db in try interruptible(handle, db) { try db.transaction(.deferred, body) } }
        }
    }

    private func interruptible<T>(_ handle: InterruptHandle?, _ db: Database, _ body: () throws -> T) throws -> T {
        guard let handle else { return try body() }
        return try handle.run(on: db.connection, body)
    }

    /// Runs `body` on a reader connection, its errors translated as ``withDatabase(_:)`` translates the writer's.
    func onReader<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        do {
            return try body(db)
        } catch let error as SQLiteError where error.code == .notADatabase {
            // Outside the writer's lock only the reader itself can try its key again.
            let unlocks = keyStillUnlocks(db) { lock.isHeldByCurrentThread && keyStillUnlocks(path: db.connection.path) }
            throw DatabaseManagerError.unreadablePage(error, path: db.connection.path, keyStillUnlocks: unlocks)
        } catch let error as SQLiteError {
            throw DatabaseManagerError.translatingQueryError(error, path: db.connection.path)
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
        let configuration = connectionConfiguration
        readers.configure(
            ReaderPool.Opening(
                open: { try Unlocking.connect(path: path, mode: .readOnly, key: key, configuration: configuration) },
                maximum: configuration.maximumReaderCount))
    }

    /// Runs `work` on one of `executor`'s threads and awaits it, the awaiting Task suspended
    /// (its cooperative thread free) meanwhile. A cancel interrupts the running statement, or
    /// takes the work out of the queue if no thread has started it.
    func run<T: Sendable>(
        on executor: ThreadExecutor, threads: Int, _ work: @escaping @Sendable (InterruptHandle) throws -> T
    ) async throws -> T {
        let handle = InterruptHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let job = ThreadExecutor.Job(
                    run: {
                        continuation.resume(
                            with: Result {
                                if handle.isCancelled { throw CancellationError() }
                                return try work(handle)
                            })
                    },
                    cancel: { continuation.resume(throwing: CancellationError()) })
                // Queued first: a cancel from now on (or already) finds the job to take out.
                executor.submit(job, maximumThreads: threads)
                handle.onInterrupt { executor.withdraw(job) }
            }
        } onCancel: {
            handle.interrupt()
        }
    }
}
