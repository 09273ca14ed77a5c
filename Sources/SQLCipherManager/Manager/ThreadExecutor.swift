import Foundation

// MARK: - ThreadExecutor

/// A few threads of the manager's own (Foundation `Thread`s, started on demand) that run the
/// blocking work of the `async` reads and writes, fed in order from a queue.
///
/// Never a `DispatchQueue`: on Linux, Dispatch's queues draw their threads from the same
/// width-limited pool as Swift's cooperative executor, so SQL work parked there delays every
/// `Task` of the process. A thread exits after a few idle seconds or when the executor is shut
/// down (the manager's `deinit`); a job that is cancelled while still queued is taken out and
/// told so at once, so a cancelled Task never waits for a thread nor holds one.
final class ThreadExecutor: @unchecked Sendable {
    // @unchecked: every stored `var` is read and written only under `condition`.

    /// One piece of work: `run` on a thread, or `cancel` instead when taken out of the queue.
    final class Job: @unchecked Sendable {
        // @unchecked: `run` and `cancel` are immutable; the executor calls exactly one of them, once.
        let run: @Sendable () -> Void
        let cancel: @Sendable () -> Void
        init(run: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
            self.run = run
            self.cancel = cancel
        }
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var threads = 0
    private var idle = 0
    private var isShutDown = false
    private let name: String
    private let idleTimeout: TimeInterval

    init(name: String, idleTimeout: TimeInterval = 5) {
        self.name = name
        self.idleTimeout = idleTimeout
    }

    /// Queues `job`; starts a thread when every thread is busy and fewer than `maximumThreads` run.
    func submit(_ job: Job, maximumThreads: Int) {
        condition.lock()
        queue.append(job)
        let starts = queue.count > idle && threads < max(maximumThreads, 1)
        if starts { threads += 1 }
        condition.signal()
        condition.unlock()
        guard starts else { return }
        // Named from inside: on Linux a name set before `start()` does not reach the thread
        // (and a name longer than 15 bytes never does).
        Thread { [self] in
            Thread.current.name = name
            Thread.current.threadDictionary[Self.marker] = name
            work()
        }.start()
    }

    /// Takes `job` out of the queue if no thread has started it; `true` when it was (then its
    /// `cancel` has run).
    @discardableResult
    func withdraw(_ job: Job) -> Bool {
        let removed = condition.withLock { () -> Bool in
            guard let index = queue.firstIndex(where: { $0 === job }) else { return false }
            queue.remove(at: index)
            return true
        }
        if removed { job.cancel() }
        return removed
    }

    /// Lets the threads finish the queued work and exit.
    func shutDown() {
        condition.withLock {
            isShutDown = true
            condition.broadcast()
        }
    }

    private static let marker = "SQLCipherManager.ThreadExecutor"

    /// The name of the executor whose thread is running the caller, `nil` on any other thread.
    static var currentExecutorName: String? { Thread.current.threadDictionary[marker] as? String }

    /// How many threads are running now (for tests).
    var threadCount: Int { condition.withLock { threads } }

    private func work() {
        while let job = next() { job.run() }
    }

    /// The next job, or `nil` when this thread should exit (idle too long, or shut down).
    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty {
            if isShutDown { break }
            idle += 1
            let signalled = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
            idle -= 1
            if !signalled, queue.isEmpty { break }
        }
        guard !queue.isEmpty else {
            threads -= 1
            return nil
        }
        return queue.removeFirst()
    }
}
