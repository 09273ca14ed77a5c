import Dispatch
import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite(.ownThread) struct ConcurrencyTests {
    @Test func manyThreadsShareOneManager() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE c(id INTEGER PRIMARY KEY, thread INTEGER, n INTEGER)")
        let threads = 8
        let perThread = 300
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for n in 0..<perThread {
                do {
                    switch n % 4 {
                    case 0: try manager.execute("INSERT INTO c(thread, n) VALUES (?, ?)", thread, n)
                    case 1:
                        try manager.transactionSync { db in
                            try db.execute("INSERT INTO c(thread, n) VALUES (?, ?)", thread, n)
                            _ = try db.scalar(Int.self, "SELECT count(*) FROM c WHERE thread = ?", thread)
                        }
                    case 2: _ = try manager.schemaVersion
                    default: _ = try manager.fetchAll("SELECT * FROM c WHERE thread = ? LIMIT 5", thread)
                    }
                } catch {
                    failures.increment()
                }
            }
        }
        #expect(failures.value == 0)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM c") == threads * perThread / 2)
    }

    @Test func openAndCloseRaceSafely() throws {
        let dir = TemporaryDirectory()
        _ = try Fixture.makeEncryptedDatabase(in: dir)
        let manager = dir.manager()
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            for _ in 0..<10 {
                if index % 2 == 0 {
                    try? manager.open(password: "secret")
                    _ = try? manager.scalar(Int.self, "SELECT count(*) FROM item")
                } else {
                    manager.close()
                }
            }
        }
        manager.close()
        try manager.open(password: "secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM item") == 3)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
