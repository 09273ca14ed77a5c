import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// A backup taken while another thread commits: every row acknowledged before the backup's
/// snapshot began is in it, and it is one consistent snapshot (the counter row matches the rows).
@Suite("Backup under a concurrent writer", .serialized, .ownThread)
struct BackupLedgerTests {
    static let initialRows = 20_000

    /// The writer's acknowledged count, shared with the test's thread.
    final class Ledger: @unchecked Sendable {
        // @unchecked: every var is read and written only under `lock`.
        private let lock = NSLock()
        private var acked = 0
        private var stopped = false
        private var failure: String?
        private var busyRetries = 0

        var acknowledged: Int { lock.withLock { acked } }
        var isStopped: Bool { lock.withLock { stopped } }
        var error: String? { lock.withLock { failure } }
        var retries: Int { lock.withLock { busyRetries } }
        func acknowledge(_ id: Int) { lock.withLock { acked = id } }
        func stop() { lock.withLock { stopped = true } }
        func fail(_ text: String) { lock.withLock { failure = text } }
        func retried() { lock.withLock { busyRetries += 1 } }
    }

    static func makeDatabase(in dir: TemporaryDirectory, wal: Bool) throws -> DatabaseManager {
        // In rollback-journal mode the backup's snapshot waits for a gap between the writer's
        // commits (SQLite's locks are not fair); on a loaded machine that can take seconds.
        let manager = dir.manager { $0.busyTimeout = .seconds(30) }
        try manager.create(password: "old-secret")
        if wal { try manager.execute("PRAGMA journal_mode = WAL") }
        try manager.transactionSync { db in
            try db.executeScript("CREATE TABLE ledger(id INTEGER PRIMARY KEY, payload BLOB); CREATE TABLE total(n INTEGER)")
            try db.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                    + "INSERT INTO ledger SELECT i, randomblob(200) FROM n", initialRows)
            try db.execute("INSERT INTO total(n) VALUES (?)", initialRows)
        }
        return manager
    }

    /// Commits one ledger row and the counter per transaction until stopped; a busy commit
    /// (rollback-journal mode, while the snapshot is held) is retried and not acknowledged.
    static func startWriter(_ manager: DatabaseManager, _ ledger: Ledger) -> Thread {
        let thread = Thread {
            var next = initialRows + 1
            while !ledger.isStopped {
                do {
                    try manager.writeSync { db in
                        try db.execute("INSERT INTO ledger(id, payload) VALUES (?, randomblob(100))", next)
                        try db.execute("UPDATE total SET n = n + 1")
                    }
                    ledger.acknowledge(next)
                    next += 1
                } catch DatabaseManagerError.Code.busy {
                    ledger.retried()
                } catch {
                    ledger.fail("\(error)")
                    return
                }
            }
        }
        thread.start()
        return thread
    }

    @Test("every row acknowledged before the snapshot is in the backup, which is consistent", arguments: [true, false])
    func ledger(wal: Bool) throws {
        let dir = TemporaryDirectory()
        let manager = try Self.makeDatabase(in: dir, wal: wal)
        let ledger = Ledger()
        let writer = Self.startWriter(manager, ledger)
        // Let the writer get going before the backup starts.
        let warmUp = Date().addingTimeInterval(60)
        while ledger.acknowledged < Self.initialRows + 50, ledger.error == nil, Date() < warmUp { usleep(1000) }
        var ackedAtStart: Int?
        try manager.backup(to: dir.file("backup.db")) { _ in
            if ackedAtStart == nil { ackedAtStart = ledger.acknowledged }
        }
        let ackedAtEnd = ledger.acknowledged
        ledger.stop()
        while !writer.isFinished { usleep(1000) }
        #expect(ledger.error == nil)

        let copy = dir.manager("backup.db")
        try copy.open(password: "old-secret")
        defer { copy.close() }
        let row = try #require(try copy.fetchOne("SELECT count(*), min(id), max(id) FROM ledger"))
        let (count, low, high) = (row.value(0, as: Int.self) ?? 0, row.value(1, as: Int.self) ?? 0, row.value(2, as: Int.self) ?? 0)
        #expect(low == 1)
        #expect(count == high, "the backup's ids have a gap")
        #expect(try copy.scalar(Int.self, "SELECT n FROM total") == count, "the counter and the rows are from different moments")
        #expect(try copy.scalar(String.self, "PRAGMA integrity_check") == "ok")
        let start = try #require(ackedAtStart)
        #expect(high >= start, "a row acknowledged before the snapshot is missing: \(high) < \(start)")
        #expect(high <= ackedAtEnd + 1)
        if wal {
            // WAL: the writer went on committing while the backup ran.
            #expect(ackedAtEnd > start)
        }
    }
}
