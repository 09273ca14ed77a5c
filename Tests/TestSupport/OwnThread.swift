import Foundation
import Testing

// MARK: - .ownThread: long blocking tests off the cooperative pool

/// Runs each test of a suite (or one test) in a task that prefers a thread of its own, at most
/// two such bodies at a time.
///
/// Swift Testing calls a synchronous test from a task on the cooperative pool, which has one
/// thread per core (two here). Two long blocking tests (kill -9 loops, ledgers, child
/// processes) therefore left no thread for any `async` test of the run, whose awaits then waited
/// for minutes. With this trait the tests waiting for one of the two slots wait without holding
/// a thread, and the body's task prefers a dedicated `Thread` (its executor preference).
///
/// The preference is a hint the Swift 6.3 runtime does not always follow: in a CI run every body
/// of `OwnThreadTests` that had waited for a slot ran on the global pool, and a standalone
/// program sees about 1 start in 140 there. Such a body blocks a pool thread, as it would without
/// the trait; the two slots still bound how many run at once, which is what nothing may lose.
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
    /// Runs the test body in a task that prefers a thread of its own, at most two such bodies at
    /// a time, so that it usually blocks no thread of the cooperative pool (see ``OwnThreadTrait``).
    public static var ownThread: Self { OwnThreadTrait() }
}

/// Two long-lived executors, each lent to one test at a time, awaited without blocking a thread.
actor OwnThreadSlots {
    /// The slots the trait uses.
    static let shared = OwnThreadSlots(count: 2)

    private var free: [OwnThreadExecutor]
    private var waiting: [CheckedContinuation<OwnThreadExecutor, Never>] = []

    init(count: Int) { free = (0..<count).map { _ in OwnThreadExecutor() } }

    /// Runs `function` in a task of its own that prefers one of the executors, once one is free.
    nonisolated func run(_ function: @Sendable () async throws -> Void) async throws {
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
    static let threadName = "own test thread"

    /// Starts the executor's thread.
    public init() {
        // Named from inside: on Linux a name set before `start()` does not reach the thread.
        let thread = Thread { [self] in
            Thread.current.name = Self.threadName
            run()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Runs `job` on the executor's thread, after the jobs already queued.
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
