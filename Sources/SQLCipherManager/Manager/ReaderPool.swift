import Foundation
import SQLCipherCore

// MARK: - ReaderPool

/// Up to N read-only connections to a WAL database, each used by one reader at a time, so
/// that reads run concurrently with each other and with the one writer (WAL readers never
/// block the writer, nor it them).
///
/// The pool never takes the manager's lock: the manager gives it, with ``configure(_:)``, how
/// to open a reader (path, derived key, settings) whenever it installs a writer connection.
/// ``closeAll()`` (the manager's
/// close, reopen and key changes) closes the idle connections, waits for the busy ones to be
/// handed back and closes those too, so that no reader ever sees a half state; connections
/// opened before it are never reused after it.
final class ReaderPool: @unchecked Sendable {
    // @unchecked: every stored property is read and written only under `condition`.

    /// What a new reader connection needs, fetched from the manager.
    struct Opening {
        let open: () throws -> Connection
        let maximum: Int
    }

    /// A connection lent to one reader.
    struct Lease {
        let connection: Connection
        fileprivate let generation: Int
    }

    private let condition = NSCondition()
    private var idle: [Lease] = []
    private var busy = 0
    private var openingCount = 0
    private var maximum = 4
    private var generation = 0
    private var recipe: Opening?

    /// How to open readers from now on; `nil`: the pool is not used (closed, or not WAL).
    func configure(_ opening: Opening?) {
        condition.withLock {
            recipe = opening
            if let opening { maximum = max(opening.maximum, 1) }
        }
    }

    /// How many connections the pool may hold at once (how many threads async reads need).
    var maximumReaders: Int { condition.withLock { maximum } }

    /// Lends a connection: an idle one, or a new one, waiting while the pool is full; `nil`
    /// when the pool is not configured (then the caller reads on the writer).
    func acquire() throws -> Lease? {
        condition.lock()
        // Wait for a free place first: a close may happen meanwhile, and its recipe must not be used after it.
        while recipe != nil, idle.isEmpty, busy + openingCount + idle.count >= maximum { condition.wait() }
        guard let recipe else {
            condition.unlock()
            return nil
        }
        if let lease = idle.popLast() {
            busy += 1
            condition.unlock()
            return lease
        }
        openingCount += 1
        let generation = self.generation
        condition.unlock()
        let connection: Connection
        do {
            connection = try recipe.open()
        } catch {
            finishOpening(nil, generation: generation)
            throw error
        }
        return finishOpening(connection, generation: generation)
    }

    @discardableResult
    private func finishOpening(_ connection: Connection?, generation: Int) -> Lease? {
        condition.lock()
        defer { condition.unlock() }
        openingCount -= 1
        condition.broadcast()
        guard let connection else { return nil }
        busy += 1
        return Lease(connection: connection, generation: generation)
    }

    /// Takes a connection back: kept for the next reader, or closed when the pool was closed since.
    func release(_ lease: Lease) {
        condition.lock()
        defer { condition.unlock() }
        busy -= 1
        if lease.generation == generation, !lease.connection.isClosed {
            idle.append(lease)
        } else {
            lease.connection.keepWALOnClose()
            lease.connection.close()
        }
        condition.broadcast()
    }

    /// Closes every connection, waiting for the readers that hold one to finish.
    func closeAll() {
        for connection in detachAll() { connection.close() }
    }

    /// Empties the pool as ``closeAll()`` does, but hands its idle connections to the caller
    /// still open (``DatabaseManager/reopen()`` closes them once the new writer is open); a
    /// connection lent out now is closed when it comes back.
    func detachAll() -> [Connection] {
        condition.lock()
        defer { condition.unlock() }
        generation += 1
        recipe = nil
        condition.broadcast()
        let detached = idle.map(\.connection)
        idle.removeAll()
        while busy > 0 || openingCount > 0 { condition.wait() }
        return detached
    }
}

/// Lets another thread interrupt the statement a reader or writer is running (`sqlite3_interrupt`,
/// which SQLite documents as safe to call from any thread), for Task cancellation.
final class InterruptHandle: @unchecked Sendable {
    // @unchecked: `connection`, `cancelled` and `whenInterrupted` are read and written only under `lock`; the
    // connection is only interrupted from here, never used otherwise.
    private let lock = NSLock()
    private var connection: Connection?
    private var cancelled = false
    private var whenInterrupted: (@Sendable () -> Void)?

    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Runs `body` with `connection` interruptible; throws `CancellationError` when cancelled.
    ///
    /// `sqlite3_interrupt` alone can be lost: SQLite clears the flag when a statement starts
    /// on a connection with none running, so a cancel that lands between two statements (the
    /// transaction's `BEGIN` and the query) would be forgotten. A progress handler that asks
    /// ``isCancelled`` every 1,000 virtual-machine steps stops any statement that runs after.
    func run<T>(on connection: Connection, _ body: () throws -> T) throws -> T {
        try lock.withLock {
            if cancelled { throw CancellationError() }
            self.connection = connection
        }
        connection.setProgressHandler(every: 1000) { [unowned self] in self.isCancelled }
        defer {
            connection.setProgressHandler(every: 0, nil)
            lock.withLock { self.connection = nil }
        }
        do {
            return try body()
        } catch let error as SQLiteError where error.code == .interrupt && isCancelled {
            throw CancellationError()
        }
    }

    /// Sets what else ``interrupt()`` does (take queued work out of its queue); run at once if
    /// the handle was interrupted already.
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        let already = lock.withLock {
            whenInterrupted = action
            return cancelled
        }
        if already { action() }
    }

    func interrupt() {
        let action = lock.withLock {
            cancelled = true
            connection?.interrupt()
            return whenInterrupted
        }
        action?()
    }
}
