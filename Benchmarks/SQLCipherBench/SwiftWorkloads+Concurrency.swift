import Foundation
import SQLCipherManager

// MARK: - Concurrency: derived-key connections, writes beside reads

extension SwiftWorkloads {
    /// Opens the fixture with the password (not timed), then times `reopen()`: a close and a
    /// new connection keyed with the derived key.
    func extraConnection(wal: Bool) throws -> Measured {
        var url = fixtures.database(rows: job.rows, encrypted: true, pageSize: job.pageSize)
        var configuration = configuration
        if wal {
            let copy = fixtures.scratch("reopen-wal")
            Fixtures.remove(copy.path)
            try FileManager.default.copyItem(at: url, to: copy)
            url = copy
            configuration.journalMode = .wal
        }
        defer { if wal { Fixtures.remove(url.path) } }
        let manager = DatabaseManager(url: url, configuration: configuration)
        try manager.open(password: Fixtures.password)
        defer { manager.close() }
        // As in an app that has used the database: on WAL its `-wal` and `-shm` exist.
        _ = try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM sqlite_master") }
        return try Measured.time {
            try manager.reopen()
            return 0
        }
    }

    /// A WAL copy of the fixture; with `duringRead`, another thread's `read { }` holds its
    /// snapshot (0.2 s quick, 2 s full) while one `write { INSERT }` is timed.
    func write(duringRead: Bool) throws -> Measured {
        let url = fixtures.scratch("write-during-read")
        Fixtures.remove(url.path)
        defer { Fixtures.remove(url.path) }
        try FileManager.default.copyItem(at: fixtures.database(rows: job.rows, encrypted: true, pageSize: job.pageSize), to: url)
        var walConfiguration = configuration
        walConfiguration.journalMode = .wal
        let manager = DatabaseManager(url: url, configuration: walConfiguration)
        try manager.open(password: Fixtures.password)
        defer { manager.close() }
        let holding = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let hold = job.rows <= 1000 ? 0.2 : 2.0
        if duringRead {
            Thread {
                _ = try? manager.readSync { db -> Int in
                    let count = try db.scalar(Int.self, "SELECT count(*) FROM bench") ?? 0
                    holding.signal()
                    Thread.sleep(forTimeInterval: hold)
                    return count
                }
                done.signal()
            }.start()
            holding.wait()
        }
        let measured = try Measured.time {
            try manager.writeSync { try $0.execute("UPDATE bench SET n1 = n1 + 1 WHERE id = 1") }
            return 0
        }
        if duringRead { done.wait() }
        return measured
    }

    /// A WAL copy of the fixture open on a manager configured for WAL.
    private func walManager(_ name: String) throws -> (DatabaseManager, URL) {
        let url = fixtures.scratch(name)
        Fixtures.remove(url.path)
        try FileManager.default.copyItem(at: fixtures.database(rows: job.rows, encrypted: true, pageSize: job.pageSize), to: url)
        var walConfiguration = configuration
        walConfiguration.journalMode = .wal
        let manager = DatabaseManager(url: url, configuration: walConfiguration)
        try manager.open(password: Fixtures.password)
        return (manager, url)
    }

    /// Two full reads (`read { forEachRow }`), on two threads at once or one after the other;
    /// both readers are opened (derived key) before the clock starts.
    func twoReads(parallel: Bool) throws -> Measured {
        let (manager, url) = try walManager("two-reads")
        defer {
            manager.close()
            Fixtures.remove(url.path)
        }
        let readAll: @Sendable () -> Int64 = {
            (try? manager.readSync { db -> Int64 in
                var sum: Int64 = 0
                try db.forEachRow(Rows.selectAllSQL) { row in sum += Self.checksum(row.row) }
                return sum
            }) ?? -1
        }
        // Warm the pool: two readers exist before timing.
        let warm = DispatchGroup()
        for _ in 0..<2 { DispatchQueue.global().async(group: warm) { _ = try? manager.readSync { try $0.scalar(Int.self, "SELECT 1") } } }
        warm.wait()
        return Measured.time {
            guard parallel else { return readAll() + readAll() }
            let sums = Sums()
            let group = DispatchGroup()
            for _ in 0..<2 {
                group.enter()
                Thread {
                    sums.add(readAll())
                    group.leave()
                }.start()
            }
            group.wait()
            return sums.total
        }
    }

    /// A `Task.sleep(10 ms)`, timed, while `job.count` tasks await CPU-bound reads — each in a
    /// loop, `read { fetchAll("SELECT count(*), sum(length(v)) FROM t") }` over `job.rows` rows
    /// (a WAL copy built first, not timed) — or with nothing else running (`job.count` 0).
    func sleepLatency() throws -> Measured {
        let url = fixtures.scratch("sleep-latency")
        Fixtures.remove(url.path)
        defer { Fixtures.remove(url.path) }
        var walConfiguration = configuration
        walConfiguration.journalMode = .wal
        let manager = DatabaseManager(url: url, configuration: walConfiguration)
        try manager.create(password: Fixtures.password)
        defer { manager.close() }
        try manager.writeSync { db in
            try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)")
            try db.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO t(v) SELECT hex(randomblob(40)) FROM n",
                job.rows)
        }
        let box = MeasuredBox()
        let done = DispatchSemaphore(value: 0)
        let tasks = job.count
        Task {
            let stop = StopFlag()
            var load: [Task<Int, Never>] = []
            for _ in 0..<tasks {
                load.append(
                    Task {
                        var reads = 0
                        while !stop.isSet {
                            _ = try? await manager.read { try $0.fetchAll("SELECT count(*), sum(length(v)) FROM t") }
                            reads += 1
                        }
                        return reads
                    })
            }
            // Every task is inside its first read before the clock starts.
            if tasks > 0 { try? await Task.sleep(nanoseconds: 50_000_000) }
            let start = DispatchTime.now().uptimeNanoseconds
            try? await Task.sleep(nanoseconds: 10_000_000)
            box.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            stop.set()
            var reads = 0
            for task in load { reads += await task.value }
            box.checksum = Int64(reads > 0 || tasks == 0 ? 1 : 0)
            done.signal()
        }
        done.wait()
        return Measured(seconds: box.seconds, checksum: box.checksum)
    }
}

extension SwiftWorkloads {
    /// Lookups inside one `read { }`: one read transaction, `fetchOne` per id.
    static func lookupsInRead(_ manager: DatabaseManager, _ ids: [Int64]) throws -> Int64 {
        try manager.readSync { db in
            var sum: Int64 = 0
            for id in ids {
                if let row = try db.fetchOne(Rows.lookupSQL, id) { sum += checksum(row) }
            }
            return sum
        }
    }

    /// `create(password:)` then `close()` on a new file.
    func createDatabase() throws -> Measured {
        let url = fixtures.scratch("create")
        Fixtures.remove(url.path)
        defer { Fixtures.remove(url.path) }
        let manager = DatabaseManager(url: url, configuration: configuration)
        return try Measured.time {
            try manager.create(password: Fixtures.password)
            manager.close()
            return 0
        }
    }
}

/// Results handed between threads in the concurrency workloads.
private final class Sums: @unchecked Sendable {
    // @unchecked: `sum` is read and written only under `lock`.
    private let lock = NSLock()
    private var sum: Int64 = 0
    func add(_ value: Int64) { lock.withLock { sum += value } }
    var total: Int64 { lock.withLock { sum } }
}

private final class MeasuredBox: @unchecked Sendable {
    // @unchecked: written by one task before `done` is signalled, read after the wait.
    var seconds: Double = 0
    var checksum: Int64 = 0
}

/// Tells the load tasks to stop; set once, read by each between its reads.
private final class StopFlag: @unchecked Sendable {
    // @unchecked: `value` is read and written only under `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
