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
        try await OwnThreadSlots.shared.run(function)
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs the test body on a thread of its own, at most two such bodies at a time, so that it
    /// blocks no thread of the cooperative pool (see ``OwnThreadTrait``).
    public static var ownThread: Self { OwnThreadTrait() }
}

/// Two long-lived executors, each lent to one test at a time, awaited without blocking a thread.
///
/// The executors live as long as the process: a task that prefers an executor whose thread was
/// started moments before sometimes runs on the global executor instead (Swift 6.3 on Linux,
/// about 1 task in 140 with a new thread per task, 0 in 5,000 with two long-lived threads; seen
/// without Swift Testing or TSan), which put a synchronous test body back on the pool.
public actor OwnThreadSlots {
    /// The slots the trait uses.
    public static let shared = OwnThreadSlots(count: 2)

    private var free: [OwnThreadExecutor]
    private var waiting: [CheckedContinuation<OwnThreadExecutor, Never>] = []

    init(count: Int) { free = (0..<count).map { _ in OwnThreadExecutor() } }

    /// Runs `function` in a task of its own that starts on one of the executors, once one is free.
    public nonisolated func run(_ function: @Sendable () async throws -> Void) async throws {
        let executor = await acquire()
        defer { Task { await release(executor) } }
        // A task of its own (task-local values, such as the test being run, are copied into it):
        // `withTaskExecutorPreference` alone would move this task only at its next enqueue, so a
        // synchronous body could still run on the calling thread.
        try await withoutActuallyEscaping(function) { function in
            let task = Task(executorPreference: executor) { try await function() }
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    private func acquire() async -> OwnThreadExecutor {
        if let executor = free.popLast() { return executor }
        return await withCheckedContinuation { waiting.append($0) }
    }

    private func release(_ executor: OwnThreadExecutor) {
        if waiting.isEmpty {
            free.append(executor)
        } else {
            waiting.removeFirst().resume(returning: executor)
        }
    }
}

/// A `TaskExecutor` with one thread that lives as long as the process: runs the jobs of the
/// tasks that prefer it, in order.
public final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is read and written only under `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

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

    private func run() -> Never {
        while true { next().runSynchronously(on: asUnownedTaskExecutor()) }
    }

    private func next() -> UnownedJob {
        condition.withLock {
            while jobs.isEmpty { condition.wait() }
            return jobs.removeFirst()
        }
    }
}
