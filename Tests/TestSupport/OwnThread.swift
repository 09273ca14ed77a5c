import Foundation
import Testing

// MARK: - .ownThread: long blocking tests off the cooperative pool

/// Runs each test of a suite (or one test) on a thread of its own, at most two at a time.
///
/// Swift Testing calls a synchronous test from a task on the cooperative pool, which has one
/// thread per core (two here). Two long blocking tests (kill -9 loops, ledgers, child
/// processes) therefore left no thread for any `async` test of the run, whose awaits then waited
/// for minutes. With this trait the body runs on a dedicated `Thread` (the task's executor
/// preference), and the tests waiting for one of the two slots wait without holding a thread,
/// so blocking tests keep today's parallelism while the pool stays free.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        await OwnThreadSlots.shared.acquire()
        let executor = OwnThreadExecutor()
        defer {
            executor.stop()
            Task { await OwnThreadSlots.shared.release() }
        }
        // A task of its own that starts on the executor (task-local values, such as the test
        // being run, are copied into it). `withTaskExecutorPreference` alone would move this
        // task only at its next enqueue, so a synchronous body could still run on this thread.
        try await withoutActuallyEscaping(function) { function in
            let task = Task(executorPreference: executor) { try await function() }
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs the test body on a thread of its own, at most two such bodies at a time, so that it
    /// blocks no thread of the cooperative pool (see ``OwnThreadTrait``).
    public static var ownThread: Self { OwnThreadTrait() }
}

/// Two slots, awaited without blocking a thread.
actor OwnThreadSlots {
    static let shared = OwnThreadSlots(count: 2)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// A `TaskExecutor` with one thread: runs the jobs of the tasks that prefer it, in order.
public final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `stopped` are read and written only under `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    /// The name of the executor's thread.
    public static let threadName = "own test thread"

    init() {
        // Named from inside: on Linux a name set before `start()` does not reach the thread.
        let thread = Thread { [self] in
            Thread.current.name = Self.threadName
            run()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Lets the thread run what is queued, then end.
    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    private func run() {
        while let job = next() { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    private func next() -> UnownedJob? {
        condition.withLock {
            while jobs.isEmpty && !stopped { condition.wait() }
            return jobs.isEmpty ? nil : jobs.removeFirst()
        }
    }
}
