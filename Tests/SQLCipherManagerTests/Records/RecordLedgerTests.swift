import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `save` under two concurrent writers loses no update: a ledger of every
/// acknowledged save, checked against the file afterwards, in WAL and rollback-journal mode,
/// with two connections (two managers on one file: SQLite's locks decide) and with one
/// manager's writer shared by two threads.
@Suite(.ownThread) struct RecordLedgerTests {
    enum Writers: String, CaseIterable, Sendable {
        case twoConnections, oneManager
    }

    /// Saves each writer thread acknowledged: (id, count) of its last save of each id.
    final class Ledger: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var saves: [String: [Int: Int]] = [:]
        private var failures: [String] = []

        func acknowledge(_ id: String, writer: Int, count: Int) { lock.withLock { saves[id, default: [:]][writer] = count } }
        func fail(_ error: any Error) { lock.withLock { failures.append("\(error)") } }
        var acknowledged: [String: [Int: Int]] { lock.withLock { saves } }
        var errors: [String] { lock.withLock { failures } }
    }

    /// Two threads meet here before each save of a shared key, so that their saves of a fresh
    /// key start together: the race an upsert must survive.
    final class Rendezvous: @unchecked Sendable {
        // @unchecked: every access holds `condition`.
        private let condition = NSCondition()
        private var arrived = 0
        private var round = 0

        /// Waits for the other thread, at most 5 s (so that one writer's failure never hangs the other).
        func meet() {
            condition.lock()
            defer { condition.unlock() }
            let mine = round
            arrived += 1
            if arrived == 2 {
                arrived = 0
                round += 1
                condition.broadcast()
                return
            }
            let deadline = Date().addingTimeInterval(5)
            while round == mine, condition.wait(until: deadline) {}
        }
    }

    static let savesPerWriter = 60

    @Test(arguments: [JournalMode.wal, .delete], Writers.allCases)
    func twoWritersSavingTheSameAndTheirOwnKeysLoseNoUpdate(mode: JournalMode, writers: Writers) throws {
        let dir = TemporaryDirectory()
        let first = try dir.recordManager { $0.journalMode = mode }
        let second: DatabaseManager
        if writers == .twoConnections {
            second = dir.manager { $0.journalMode = mode }
            try second.open(password: "secret")
        } else {
            second = first
        }
        let ledger = Ledger()
        let rendezvous = Rendezvous()
        let done = DispatchSemaphore(value: 0)
        for (writer, manager) in [first, second].enumerated() {
            Thread {
                Self.runWriter(writer, manager, ledger, rendezvous)
                done.signal()
            }.start()
        }
        for _ in 0..<2 { #expect(done.wait(timeout: .now() + 180) == .success, "a writer did not finish") }
        #expect(ledger.errors.isEmpty)
        try check(first, against: ledger)
    }

    /// The emulation's window, held open: while one connection's save sits between its `UPDATE`
    /// (no row) and its `INSERT`, another connection saves the same new key. The second waits
    /// for the first's transaction, then updates the row the first inserted: both acknowledged,
    /// the second's value last. (Without the transaction the second would insert in the window
    /// and the first's `INSERT` fail on the key.)
    @Test(arguments: [JournalMode.wal, .delete])
    func aSaveOfTheSameNewKeyBetweenTheEmulationsUpdateAndInsertWaitsForIt(mode: JournalMode) throws {
        let dir = TemporaryDirectory()
        let first = try dir.recordManager { $0.journalMode = mode }
        let second = dir.manager { $0.journalMode = mode }
        try second.open(password: "secret")
        let ledger = Ledger()
        let secondDone = DispatchSemaphore(value: 0)
        try first.withDatabase { db in
            let record = LedgerCounter(id: "race", writer: 0, count: 1)
            try db.save(record, in: "counter", primaryKey: ["id"], style: .emulated) {
                Thread {
                    do {
                        try second.withDatabase { try $0.save(LedgerCounter(id: "race", writer: 1, count: 2)) }
                        ledger.acknowledge("race", writer: 1, count: 2)
                    } catch {
                        ledger.fail(error)
                    }
                    secondDone.signal()
                }.start()
                // The second save must not finish while this one holds its transaction.
                #expect(secondDone.wait(timeout: .now() + 0.5) == .timedOut)
            }
            ledger.acknowledge("race", writer: 0, count: 1)
        }
        #expect(secondDone.wait(timeout: .now() + 30) == .success)
        #expect(ledger.errors.isEmpty)
        #expect(ledger.acknowledged["race"] == [0: 1, 1: 2])
        #expect(try first.fetchAll(LedgerCounter.self, "SELECT * FROM counter") == [LedgerCounter(id: "race", writer: 1, count: 2)])
    }

    /// One writer's saves: its own counter again and again (the update path), a fresh key the
    /// other writer saves at about the same time (the insert race), a key of its own (the insert
    /// path), and a read-modify-write of a shared total inside `write { }` (a savepoint).
    private static func runWriter(_ writer: Int, _ manager: DatabaseManager, _ ledger: Ledger, _ rendezvous: Rendezvous) {
        for count in 1...savesPerWriter {
            let saves = [
                LedgerCounter(id: "own-\(writer)", writer: writer, count: count),
                LedgerCounter(id: "shared-\(count)", writer: writer, count: count),
                LedgerCounter(id: "entry-\(writer)-\(count)", writer: writer, count: count),
            ]
            for record in saves {
                if record.id.hasPrefix("shared-") { rendezvous.meet() }
                do {
                    try manager.withDatabase { try $0.save(record) }
                    ledger.acknowledge(record.id, writer: writer, count: count)
                } catch {
                    ledger.fail(error)
                }
            }
            do {
                try manager.writeSync { db in
                    let total = try db.fetch(LedgerCounter.self, id: "total")?.count ?? 0
                    try db.save(LedgerCounter(id: "total", writer: writer, count: total + 1))
                }
                ledger.acknowledge("total-\(writer)-\(count)", writer: writer, count: count)
            } catch {
                ledger.fail(error)
            }
        }
    }

    /// Every acknowledged save is in the file: each writer's own counter at its last count,
    /// each entry, each shared key with the count both wrote and one of their writers, the total
    /// at the number of acknowledged increments; and no other row.
    private func check(_ manager: DatabaseManager, against ledger: Ledger) throws {
        let rows = try manager.fetchAll(LedgerCounter.self, "SELECT * FROM counter")
        let stored = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        let acknowledged = ledger.acknowledged
        let n = Self.savesPerWriter
        for writer in 0..<2 {
            #expect(stored["own-\(writer)"] == LedgerCounter(id: "own-\(writer)", writer: writer, count: n))
            for count in 1...n {
                let id = "entry-\(writer)-\(count)"
                #expect(acknowledged[id]?[writer] == count)
                #expect(stored[id] == LedgerCounter(id: id, writer: writer, count: count))
            }
        }
        for count in 1...n {
            let saved = try #require(stored["shared-\(count)"])
            #expect(saved.count == count && acknowledged["shared-\(count)"]?[saved.writer] == count)
        }
        let increments = acknowledged.keys.filter { $0.hasPrefix("total-") }.count
        #expect(increments == 2 * n)
        #expect(stored["total"]?.count == increments)
        #expect(rows.count == 2 + 2 * n + n + 1)
    }
}
