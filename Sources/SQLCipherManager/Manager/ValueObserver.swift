import Foundation
import SQLCipherCore
import SQLCipherQuery

// MARK: - ValueObserver

/// One running observation: runs its query on one of the manager's reader threads, yields
/// each new value to the stream its ``DatabaseObservation`` iterator reads, gives the
/// ``ObservationCenter`` the tables it read, and runs again when the center says so.
///
/// Coalescing: the writer's commits closer together than ``quiet`` are one burst, and the query
/// runs once, after the last of them (at the latest ``longest`` after the first, for a burst
/// that goes on). A notice that arrives while the query runs marks it dirty, and the query runs
/// once more after it, the same way; so the last value yielded always comes from a snapshot
/// taken after the last notice (the stream keeps only the newest value unread).
final class ValueObserver<Value: Sendable>: ObservationClient, @unchecked Sendable {
    // @unchecked: `isRunning`, `isDirty`, `isFinished`, `isWaiting`, the two instants, `last`
    // and `runCount` are read and written only under `lock`; the closures and the continuation
    // are Sendable.
    private let lock = NSLock()
    private var isRunning = false
    private var isDirty = false
    private var isFinished = false
    /// A run waits for the commits to pause (a timer is armed).
    private var isWaiting = false
    private var lastNotice = ContinuousClock.now
    private var waitStarted = ContinuousClock.now
    private var last: Value?
    private weak var manager: DatabaseManager?
    private let fetch: @Sendable (Database) throws -> Value
    private let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    private let continuation: AsyncThrowingStream<Value, any Error>.Continuation
    private let interrupt = InterruptHandle()
    private var runCount = 0
    /// The pause that ends a burst of the writer's commits (``DatabaseConfiguration/observationQuietPeriod``;
    /// 1 ms by default: a commit takes 0.05–0.3 ms in WAL mode without a sync, so a loop of
    /// commits is one burst, and the latency it adds is within the 5 ms goal).
    private let quiet: Duration
    /// The longest a run waits for a burst to end (16 ms by default: a display frame).
    private let longest: Duration

    init(
        manager: DatabaseManager, fetch: @escaping @Sendable (Database) throws -> Value,
        isDuplicate: (@Sendable (Value, Value) -> Bool)?, continuation: AsyncThrowingStream<Value, any Error>.Continuation,
        quiet: Duration
    ) {
        self.quiet = quiet
        longest = quiet * 16
        self.manager = manager
        self.fetch = fetch
        self.isDuplicate = isDuplicate
        self.continuation = continuation
    }

    /// How many times the query ran (for tests and benchmarks).
    var runs: Int { lock.withLock { runCount } }

    /// A commit of the writer touched what the query reads: runs it once the commits pause
    /// (``quiet``, at most ``longest`` after this first notice), or after the run in progress.
    func scheduleAfterCommit() {
        guard quiet > .zero else { return schedule() }
        let now = ContinuousClock.now
        let arms = lock.withLock { () -> Bool in
            guard !isFinished else { return false }
            lastNotice = now
            if isRunning {
                isDirty = true
                return false
            }
            return armWait(now)
        }
        if arms { checkQuiet(after: quiet) }
    }

    /// Under `lock`: `true` when no wait was armed (the caller arms it).
    private func armWait(_ now: ContinuousClock.Instant) -> Bool {
        guard !isWaiting else { return false }
        isWaiting = true
        waitStarted = now
        return true
    }

    /// Runs the query when the commits have paused, else looks again when they may have.
    private func checkQuiet(after delay: Duration) {
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) { [self] in
            let now = ContinuousClock.now
            let due = lock.withLock { () -> ContinuousClock.Instant? in
                let due = Swift.min(lastNotice + quiet, waitStarted + longest)
                if now < due, !isFinished { return due }
                isWaiting = false
                return nil
            }
            if let due { checkQuiet(after: due - now) } else { schedule() }
        }
    }

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

    /// Runs the query; a notice during the run has it run again once the commits pause.
    private func runLoop() {
        lock.withLock { isDirty = false }
        guard let manager, runOnce(manager) else { return finish(nil) }
        let rerun = lock.withLock { () -> Bool in
            isRunning = false
            return isDirty && !isFinished && armWait(ContinuousClock.now)
        }
        if rerun { checkQuiet(after: quiet) }
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
    func scheduleAfterCommit()
    func finish(_ error: (any Error)?)
}
