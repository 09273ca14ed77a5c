import Foundation

// MARK: - ValueObserver

/// One running observation: runs its query on one of the manager's reader threads, yields
/// each new value to the stream its ``DatabaseObservation`` iterator reads, gives the
/// ``ObservationCenter`` the tables it read, and runs again when the center says so.
///
/// Coalescing: a notice that arrives while the query runs marks it dirty, and the run loop
/// runs the query once more after it, so that the last value yielded always comes from a
/// snapshot taken after the last notice (the stream keeps only the newest value unread).
final class ValueObserver<Value: Sendable>: ObservationClient, @unchecked Sendable {
    // @unchecked: `isRunning`, `isDirty`, `isFinished`, `last` and `runCount` are read and
    // written only under `lock`; the closures and the continuation are Sendable.
    private let lock = NSLock()
    private var isRunning = false
    private var isDirty = false
    private var isFinished = false
    private var last: Value?
    private weak var manager: DatabaseManager?
    private let fetch: @Sendable (Database) throws -> Value
    private let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    private let continuation: AsyncThrowingStream<Value, any Error>.Continuation
    private let interrupt = InterruptHandle()
    private var runCount = 0

    init(
        manager: DatabaseManager, fetch: @escaping @Sendable (Database) throws -> Value,
        isDuplicate: (@Sendable (Value, Value) -> Bool)?, continuation: AsyncThrowingStream<Value, any Error>.Continuation
    ) {
        self.manager = manager
        self.fetch = fetch
        self.isDuplicate = isDuplicate
        self.continuation = continuation
    }

    /// How many times the query ran (for tests and benchmarks).
    var runs: Int { lock.withLock { runCount } }

    /// Runs the query (again) soon: now on a reader thread, or after the run in progress.
    func schedule() {
        let starts = lock.withLock { () -> Bool in
            guard !isFinished else { return false }
            if isRunning {
                isDirty = true
                return false
            }
            isRunning = true
            return true
        }
        guard starts, let manager else { return }
        let job = ThreadExecutor.Job(run: { [self] in runLoop() }, cancel: { [self] in finish(nil) })
        manager.readExecutor.submit(job, maximumThreads: manager.readers.maximumReaders)
    }

    /// Ends the stream (normally when `error` is `nil`), and interrupts the run in progress.
    func finish(_ error: (any Error)?) {
        let first = lock.withLock { () -> Bool in
            defer { isFinished = true }
            return !isFinished
        }
        guard first else { return }
        interrupt.interrupt()
        continuation.finish(throwing: error)
        manager?.observations.remove(self)
    }

    private func runLoop() {
        repeat {
            lock.withLock { isDirty = false }
            guard let manager, runOnce(manager) else { return finish(nil) }
        } while lock.withLock({ () -> Bool in
            if isDirty, !isFinished { return true }
            isRunning = false
            return false
        })
    }

    /// One run of the query; `false` when the observation ended.
    private func runOnce(_ manager: DatabaseManager) -> Bool {
        do {
            let (value, reads) = try manager.observedRead(interruptible: interrupt, fetch)
            manager.observations.update(ObservationRegion(reads: reads), for: self)
            let yields = lock.withLock { () -> Bool in
                runCount += 1
                if let last, let isDuplicate, isDuplicate(last, value) { return false }
                last = value
                return !isFinished
            }
            if yields { continuation.yield(value) }
            return true
        } catch DatabaseManagerError.notOpen {
            return false
        } catch is CancellationError {
            return false
        } catch {
            finish(error)
            return true
        }
    }
}

/// What the ``ObservationCenter`` knows of an observation, whatever its value type.
protocol ObservationClient: AnyObject, Sendable {
    var runs: Int { get }
    func schedule()
    func finish(_ error: (any Error)?)
}
