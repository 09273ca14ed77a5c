import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `read { }` on a WAL database: concurrent snapshots beside the one writer. No test here
/// measures time: each ordering is proven by a handshake (a semaphore the other side must
/// signal while this side is still inside its closure).
@Suite("Reader pool: concurrent reads on WAL, snapshot isolation, cancellation, close and rekey", .ownThread)
struct ReaderPoolTests {
    /// A WAL database with `t(x)` holding `rows` rows, open on a manager.
    private func walManager(_ dir: TemporaryDirectory, rows: Int = 10) throws -> DatabaseManager {
        let manager = dir.manager { $0.journalMode = .wal }
        try manager.create(password: "secret")
        try manager.writeSync { db in
            try db.execute("CREATE TABLE t(x INTEGER)")
            for x in 0..<rows { try db.execute("INSERT INTO t VALUES (?)", x) }
        }
        #expect(try manager.scalar(String.self, "PRAGMA journal_mode") == "wal")
        return manager
    }

    @Test("a write commits while a read is running, and the read keeps its snapshot")
    func writeDuringReadAndSnapshot() throws {
        let dir = TemporaryDirectory()
        let manager = try walManager(dir)
        let inRead = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        let result = Locked<(Int, Int, Bool)?>(nil)
        let reader = Thread {
            result.value = try? manager.readSync { db in
                let before = try db.scalar(Int.self, "SELECT count(*) FROM t") ?? -1
                inRead.signal()
                // The writer must finish while this read is still open.
                let wroteMeanwhile = written.wait(timeout: .now() + 20) == .success
                let after = try db.scalar(Int.self, "SELECT count(*) FROM t") ?? -1
                return (before, after, wroteMeanwhile)
            }
        }
        reader.start()
        #expect(inRead.wait(timeout: .now() + 20) == .success)
        try manager.writeSync { try $0.execute("INSERT INTO t VALUES (99)") }
        written.signal()
        while result.value == nil { usleep(1000) }
        let (before, after, wroteMeanwhile) = try #require(result.value)
        #expect(wroteMeanwhile)
        #expect(before == 10 && after == 10, "the read's snapshot changed: \(before) → \(after)")
        #expect(try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM t") } == 11)
    }

    @Test("a read never sees a write that has not committed")
    func noUncommittedReads() throws {
        let dir = TemporaryDirectory()
        let manager = try walManager(dir)
        let inserted = DispatchSemaphore(value: 0)
        let readDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? manager.writeSync { db in
                try db.execute("INSERT INTO t VALUES (100)")
                inserted.signal()
                _ = readDone.wait(timeout: .now() + 20)
            }
        }
        writer.start()
        #expect(inserted.wait(timeout: .now() + 20) == .success)
        #expect(try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM t") } == 10)
        readDone.signal()
    }

    @Test("8 threads of mixed reads and writes: every acknowledged write is read back, counts never go down")
    func mixedThreads() throws {
        let dir = TemporaryDirectory()
        let manager = try walManager(dir, rows: 0)
        let acknowledged = Locked<[Int]>([])
        let problems = Locked<[String]>([])
        let group = DispatchGroup()
        for thread in 0..<8 {
            group.enter()
            Thread {
                defer { group.leave() }
                var seen = 0
                for step in 0..<40 {
                    do {
                        if (thread + step) % 3 == 0 {
                            let id = thread * 1000 + step
                            try manager.writeSync { try $0.execute("INSERT INTO t VALUES (?)", id) }
                            acknowledged.mutate { $0.append(id) }
                        } else {
                            let count = try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM t") } ?? 0
                            if count < seen { problems.mutate { $0.append("count went down \(seen) → \(count)") } }
                            seen = count
                        }
                    } catch {
                        problems.mutate { $0.append("\(error)") }
                    }
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(problems.value.isEmpty, "\(problems.value.prefix(3))")
        let stored = Set(try manager.readSync { db in try db.fetchAll("SELECT x FROM t").compactMap { $0.value(0, as: Int.self) } })
        #expect(Set(acknowledged.value).isSubset(of: stored))
    }

    @Test("close waits for the reads in progress; later reads throw notOpen")
    func closeWhileReading() throws {
        let dir = TemporaryDirectory()
        let manager = try walManager(dir)
        let inRead = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let readResult = Locked<Int?>(nil)
        Thread {
            readResult.value = try? manager.readSync { db in
                inRead.signal()
                _ = release.wait(timeout: .now() + 20)
                return try db.scalar(Int.self, "SELECT count(*) FROM t")
            }
        }.start()
        #expect(inRead.wait(timeout: .now() + 20) == .success)
        let closed = DispatchSemaphore(value: 0)
        Thread {
            manager.close()
            closed.signal()
        }.start()
        #expect(closed.wait(timeout: .now() + 0.2) == .timedOut, "close did not wait for the read")
        release.signal()
        #expect(closed.wait(timeout: .now() + 20) == .success)
        #expect(readResult.value == 10)
        #expect(throws: DatabaseManagerError.notOpen) { _ = try manager.readSync { try $0.scalar(Int.self, "SELECT 1") } }
    }

    @Test("rekey with a read in progress: it waits for it, then reads use the new key")
    func rekeyWhileReading() throws {
        let dir = TemporaryDirectory()
        let manager = try walManager(dir)
        let inRead = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread {
            _ = try? manager.readSync { db in
                inRead.signal()
                _ = release.wait(timeout: .now() + 20)
                return try db.scalar(Int.self, "SELECT count(*) FROM t")
            }
        }.start()
        #expect(inRead.wait(timeout: .now() + 20) == .success)
        let rekeyed = Locked<String?>(nil)
        Thread { rekeyed.value = thrownCase { try manager.rekey(to: .password("new-secret")) } }.start()
        usleep(100_000)
        #expect(rekeyed.value == nil, "the rekey did not wait for the read")
        release.signal()
        while rekeyed.value == nil { usleep(1000) }
        #expect(rekeyed.value == "none")
        #expect(try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM t") } == 10)
        manager.close()
        #expect(dir.openResult(password: "new-secret") == "none")
    }

    @Test("async: cancelling a long read interrupts it with CancellationError; async write commits")
    func asyncCancellation() async throws {
        let dir = TemporaryDirectory()
        let manager = try walManager(dir)
        try await manager.write { try $0.execute("INSERT INTO t VALUES (7)") }
        #expect(try await manager.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") } == 11)
        let task = Task {
            try await manager.read { db in
                try db.scalar(Int.self, "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c")
            }
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // A cancel may land before the read starts, between its BEGIN and its query, or during
        // it; none may be lost (sqlite3_interrupt alone is cleared when a statement starts).
        for attempt in 0..<12 {
            let endless = Task {
                try await manager.read { db in
                    try db.scalar(Int.self, "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c")
                }
            }
            try await Task.sleep(nanoseconds: UInt64(attempt) * 1_500_000)
            endless.cancel()
            await #expect(throws: CancellationError.self) { try await endless.value }
        }
        #expect(try await manager.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") } == 11)
    }

    @Test("the manager's query conveniences read through the pool: they never wait behind a write, and see the last commit")
    func conveniencesDoNotWaitForTheWriter() throws {
        struct Item: Decodable { var x: Int }
        let dir = TemporaryDirectory()
        let manager = try walManager(dir)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Another thread holds the writer, its transaction open with an uncommitted row.
        let writer = Thread {
            try? manager.writeSync { db in
                try db.execute("INSERT INTO t VALUES (100)")
                holding.signal()
                release.wait()
            }
        }
        writer.start()
        holding.wait()
        let counts = Deadline.run(seconds: 10) { () -> [Int?] in
            [
                try? manager.decodeScalar(Int.self, "SELECT count(*) FROM t"),
                try? manager.scalar(Int.self, "SELECT count(*) FROM t"),
                (try? manager.fetchAll("SELECT x FROM t"))?.count,
                (try? manager.fetchOne("SELECT count(*) FROM t"))?.flatMap { $0.value(0, as: Int.self) },
                (try? manager.fetchAll(Item.self, "SELECT x FROM t"))?.count,
                (try? manager.fetchAll("SELECT x FROM t WHERE x >= :low", arguments: ["low": 0]))?.count,
                (try? manager.fetchOne(Item.self, "SELECT count(*) AS x FROM t"))?.x,
                try? manager.scalar(Int.self, "SELECT count(*) FROM t WHERE x >= ?", 0),
            ]
        }
        release.signal()
        #expect(counts == Array(repeating: 10, count: 8))
        // After the commit, the next call's snapshot has the row.
        var committed = 0
        for _ in 0..<1000 where committed != 11 {
            committed = try manager.decodeScalar(Int.self, "SELECT count(*) FROM t")
            if committed != 11 { Thread.sleep(forTimeInterval: 0.005) }
        }
        #expect(committed == 11)
    }

    @Test("rollback-journal databases: read runs on the writer, in a transaction")
    func rollbackModeFallsBack() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        try manager.writeSync { try $0.execute("INSERT INTO t VALUES (1)") }
        #expect(try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM t") } == 1)
    }
}

/// A value shared between test threads.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `_value` is read and written only under `lock`.
    private let lock = NSLock()
    private var _value: Value
    init(_ value: Value) { _value = value }
    var value: Value {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&_value) } }
}
