import Foundation
import SQLCipherCore

// MARK: - ExternalChangeMonitor

/// Notices the commits of other connections and processes for the observations of one
/// manager: a thread of its own waits for a change to the database file or its `-wal` (a
/// ``FileWatch``: inotify on Linux, a dispatch source on Apple platforms) or for a slow poll
/// (``pollInterval``, also the whole mechanism when the watch cannot be set up), then runs
/// `check`, which compares the writer's `PRAGMA data_version`.
///
/// A file event comes when the other connection writes its pages, before its commit is
/// visible (in WAL mode the commit is the `-shm` index update, which no watch sees), so after an
/// event the check runs again a few times over about 200 ms (``settleDelays``) until it is
/// settled: `data_version` moved, or the manager's own writer committed meanwhile (the event
/// was most likely its own; a commit from elsewhere at the same moment waits for the poll).
final class ExternalChangeMonitor: @unchecked Sendable {
    // @unchecked: `stopped` and `exited` are read and written only under `condition`; the
    // watch is used by the monitor's thread, and woken (thread-safe) by `stop()`.
    static let pollInterval: TimeInterval = 1
    static let settleDelays: [TimeInterval] = [0.001, 0.004, 0.015, 0.05, 0.13]
    static let throttle: TimeInterval = 0.004
    private let condition = NSCondition()
    private var stopped = false
    private var exited = false
    private let path: String
    /// Looks at `data_version`; `true` when settled (it moved, or the own writer committed).
    private let check: @Sendable () -> Bool
    private let watch: FileWatch?

    init(path: String, check: @escaping @Sendable () -> Bool) {
        self.path = path
        self.check = check
        watch = try? FileWatch(path: path)
    }

    /// `true` when changes are watched (else only polled).
    var isWatching: Bool { watch != nil }

    /// Starts the thread: a first `check` (the baseline), then `then`, then the watch loop.
    func start(then: @escaping @Sendable () -> Void) {
        Thread { [self] in
            Thread.current.name = "SQLCipher.watch"
            _ = check()
            then()
            while !isStopped {
                guard let watch else {
                    condition.withLock { _ = stopped || condition.wait(until: Date(timeIntervalSinceNow: Self.pollInterval)) }
                    if !isStopped { _ = check() }
                    continue
                }
                let changed = watch.wait(timeout: Self.pollInterval)
                if isStopped { break }
                if !changed {
                    _ = check()
                    continue
                }
                if !check() {
                    for delay in Self.settleDelays {
                        watch.wait(timeout: delay)
                        if isStopped || check() { break }
                    }
                }
                // At most one look per `throttle`: a writer committing thousands of times a
                // second (its own events) wakes this thread once per pause, not once per commit.
                condition.withLock { _ = stopped || condition.wait(until: Date(timeIntervalSinceNow: Self.throttle)) }
            }
            watch?.close()
            condition.withLock {
                exited = true
                condition.broadcast()
            }
        }.start()
    }

    private var isStopped: Bool { condition.withLock { stopped } }

    /// Asks the thread to exit (it closes the watch), without waiting for it.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
        watch?.wake()
    }

    /// Waits until the thread has exited and closed its watch, at most until `deadline`; `true` when it has.
    func waitUntilExited(before deadline: Date) -> Bool {
        condition.withLock {
            while !exited { if !condition.wait(until: deadline) { return exited } }
            return true
        }
    }
}
