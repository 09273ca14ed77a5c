import Foundation
import SQLCipherManager

// MARK: - Concurrency: derived-key connections, writes beside reads

extension SwiftWorkloads {
    /// Opens the fixture with the password (not timed), then times `reopen()`: a close and a
    /// new connection keyed with the derived key.
    func extraConnection() throws -> Measured {
        let url = fixtures.database(rows: job.rows, encrypted: true, pageSize: job.pageSize)
        let manager = DatabaseManager(url: url, configuration: configuration)
        try manager.open(password: Fixtures.password)
        defer { manager.close() }
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
        let holding = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let hold = job.rows <= 1000 ? 0.2 : 2.0
        if duringRead {
            Thread {
                _ = try? manager.read { db -> Int in
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
            try manager.write { try $0.execute("UPDATE bench SET n1 = n1 + 1 WHERE id = 1") }
            return 0
        }
        if duringRead { done.wait() }
        return measured
    }
}
