import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The blocking work of the `async` calls runs on the manager's own threads: awaiting it never
/// takes a thread of the cooperative pool (`make bench` measures what that buys: a
/// `Task.sleep` beside CPU-bound awaited reads). No test here measures time.
@Suite("Async reads and writes run on the manager's own threads")
struct AsyncExecutorTests {
    /// A WAL database with `t(x)`, its pool wide enough for `readers` reads at once.
    private func walManager(_ dir: TemporaryDirectory, readers: Int) throws -> DatabaseManager {
        let manager = dir.manager {
            $0.journalMode = .wal
            $0.maximumReaderCount = readers
        }
        try manager.create(password: "secret")
        try manager.writeSync { try $0.execute("CREATE TABLE t(x INTEGER)") }
        return manager
    }

    @Test("async read, write and transaction bodies run on the manager's threads, never the cooperative pool's")
    func bodiesRunOnOwnThreads() async throws {
        let dir = TemporaryDirectory()
        let manager = try walManager(dir, readers: 2)
        #expect(try await asyncRead(manager) { _ in ThreadExecutor.currentExecutorName } == "SQLCipher.read")
        #expect(try await asyncWrite(manager) { _ in ThreadExecutor.currentExecutorName } == "SQLCipher.write")
        #expect(try await manager.transaction(.deferred) { _ in ThreadExecutor.currentExecutorName } == "SQLCipher.write")
        // Rollback journal: the read runs on the writer, still on a read thread of the manager.
        let rollback = try TemporaryDirectory().createdManager(table: "CREATE TABLE t(x)")
        #expect(try await asyncRead(rollback) { _ in ThreadExecutor.currentExecutorName } == "SQLCipher.read")
    }

    @Test("a cancel while the read is still queued resumes at once and leaves no connection lent")
    func cancelWhileQueued() async throws {
        let dir = TemporaryDirectory()
        let manager = try walManager(dir, readers: 1)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // One read holds the only reader thread.
        let first = Task {
            try await asyncRead(manager) { db -> Int in
                holding.signal()
                release.wait()
                return try db.scalar(Int.self, "SELECT count(*) FROM t") ?? -1
            }
        }
        await withCheckedContinuation { continuation in
            Thread {
                holding.wait()
                continuation.resume()
            }.start()
        }
        let queued = Task { try await asyncRead(manager) { try $0.scalar(Int.self, "SELECT 1") } }
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        release.signal()
        #expect(try await first.value == 0)
        // The pool has its one connection back: a close does not wait, reads still work after a reopen.
        try manager.reopen()
        #expect(try await asyncRead(manager) { try $0.scalar(Int.self, "SELECT count(*) FROM t") } == 0)
        #expect(manager.readExecutor.threadCount <= 1)
    }

    @Test("the executor starts threads only up to its maximum and they exit when idle")
    func executorThreadsAreBounded() throws {
        let executor = ThreadExecutor(name: "test", idleTimeout: 0.05)
        let gate = DispatchSemaphore(value: 0)
        let ran = Locked(0)
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<6 {
            executor.submit(
                ThreadExecutor.Job(
                    run: {
                        gate.wait()
                        ran.mutate { $0 += 1 }
                        done.signal()
                    }, cancel: {}), maximumThreads: 2)
        }
        #expect(executor.threadCount == 2)
        for _ in 0..<6 { gate.signal() }
        for _ in 0..<6 { done.wait() }
        #expect(ran.value == 6)
        var waited = 0
        while executor.threadCount > 0, waited < 200 {
            Thread.sleep(forTimeInterval: 0.01)
            waited += 1
        }
        #expect(executor.threadCount == 0)
        executor.shutDown()
    }
}

/// The `async` read, named so that the synchronous overload cannot be picked instead.
func asyncRead<T: Sendable>(_ manager: DatabaseManager, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    try await manager.read(body)
}
