import Dispatch
import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// The stress test uses `DatabaseManager.shared`, so it lives in the one serialized suite that
// owns the shared instance (two serialized suites could still run at the same time).
extension SharedManagerTests {
    static let stressThreads = 8
    static let stressOperationsPerThread = 5_000
    static let stressSchemaVersion = 7

    /// 8 threads × 5,000 mixed operations on the shared manager: plain writes, reads,
    /// transactions that commit, transactions that roll back, schema-version reads, and now and
    /// then a reopen of the connection with the cached key. Every
    /// thread checks, at every step, that the rows it wrote so far are exactly there (its rows
    /// are written by no one else and every call is serialised by the manager); at the end the
    /// counts add up. A deadlock hangs the test; a race crashes it or breaks a count.
    @Test func eightThreadsShareTheSharedManager() throws {
        try Self.restoringShared { shared in
            let dir = TemporaryDirectory()
            shared.databaseURL = dir.file()
            shared.configuration.cipher = .fast()
            try shared.create(password: "secret")
            // The test is about the manager's locking, not durability: without an fsync per commit
            // the 40,000 operations take seconds instead of minutes on a virtual disk.
            try shared.execute("PRAGMA synchronous = OFF")
            try shared.execute("CREATE TABLE stress(id INTEGER PRIMARY KEY, thread INTEGER NOT NULL, step INTEGER NOT NULL)")
            try shared.execute("CREATE INDEX stress_thread ON stress(thread)")
            try shared.setSchemaVersion(Self.stressSchemaVersion)

            // Per 6 steps a thread inserts 1 (write) + 2 (committed transaction) rows.
            let expectedPerThread = (0..<Self.stressOperationsPerThread).reduce(0) { $0 + [1, 0, 2, 0, 0, 0][$1 % 6] }
            let problems = ProblemLog()
            DispatchQueue.concurrentPerform(iterations: Self.stressThreads) { thread in
                var mine = 0
                for step in 0..<Self.stressOperationsPerThread {
                    do {
                        mine += try Self.stressOperation(step, thread: thread, rowsSoFar: mine, on: shared)
                    } catch {
                        problems.add("thread \(thread), step \(step): \(error)")
                    }
                }
                if mine != expectedPerThread { problems.add("thread \(thread) wrote \(mine) rows") }
            }

            #expect(problems.entries.isEmpty, "\(problems.entries.count) problems, first: \(problems.entries.prefix(3))")
            #expect(try shared.scalar(Int.self, "SELECT count(*) FROM stress") == expectedPerThread * Self.stressThreads)
            for thread in 0..<Self.stressThreads {
                #expect(try shared.scalar(Int.self, "SELECT count(*) FROM stress WHERE thread = ?", thread) == expectedPerThread)
            }
            #expect(try shared.schemaVersion == Self.stressSchemaVersion)
            #expect(try shared.integrityProblems().isEmpty)
        }
    }

    /// One operation of the mix; returns how many of this thread's rows it added. Throws
    /// ``StressMismatch`` when what the thread sees is not what it wrote.
    private static func stressOperation(_ step: Int, thread: Int, rowsSoFar: Int, on manager: DatabaseManager) throws -> Int {
        func expectMine(_ db: Database, _ expected: Int) throws {
            let found = try db.scalar(Int.self, "SELECT count(*) FROM stress WHERE thread = ?", thread) ?? -1
            guard found == expected else { throw StressMismatch(expected: expected, found: found) }
        }
        switch step % 6 {
        case 0:
            try manager.execute("INSERT INTO stress(thread, step) VALUES (?, ?)", thread, step)
            return 1
        case 1:
            let found = try manager.scalar(Int.self, "SELECT count(*) FROM stress WHERE thread = ?", thread) ?? -1
            guard found == rowsSoFar else { throw StressMismatch(expected: rowsSoFar, found: found) }
            return 0
        case 2:
            try manager.transactionSync(.immediate) { db in
                try expectMine(db, rowsSoFar)
                try db.execute("INSERT INTO stress(thread, step) VALUES (?, ?)", thread, step)
                try db.execute("INSERT INTO stress(thread, step) VALUES (?, ?)", thread, -step)
                try expectMine(db, rowsSoFar + 2)
            }
            return 2
        case 3:
            let version = try manager.schemaVersion
            guard version == stressSchemaVersion else { throw StressMismatch(expected: stressSchemaVersion, found: version) }
            return 0
        case 4:
            // Rolled back: the row must be gone afterwards.
            do {
                try manager.transactionSync { db in
                    try db.execute("INSERT INTO stress(thread, step) VALUES (?, ?)", thread, step)
                    try expectMine(db, rowsSoFar + 1)
                    throw RollBack()
                }
            } catch is RollBack {}
            return 0
        default:
            if thread == 0, step % 600 == 5 {
                // Now and then the connection is replaced under the other threads' feet: close
                // and open again with the cached key, atomically for everyone else.
                try manager.locked {
                    try manager.reopen()
                    try manager.execute("PRAGMA synchronous = OFF")
                }
            }
            let rows = try manager.fetchAll("SELECT id, step FROM stress WHERE thread = ? ORDER BY id DESC LIMIT 3", thread)
            guard rows.count == min(rowsSoFar, 3) else { throw StressMismatch(expected: min(rowsSoFar, 3), found: rows.count) }
            return 0
        }
    }
}

private struct RollBack: Error {}

private struct StressMismatch: Error, CustomStringConvertible {
    let expected: Int
    let found: Int
    var description: String { "expected \(expected), found \(found)" }
}

/// Problems seen by the worker threads.
final class ProblemLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _entries: [String] = []
    func add(_ entry: String) { lock.withLock { _entries.append(entry) } }
    var entries: [String] { lock.withLock { _entries } }
}
