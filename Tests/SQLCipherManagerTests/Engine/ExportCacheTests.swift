import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The page cache an export uses so that each page is decrypted once.
@Suite struct ExportCacheTests {
    @Test func theScanCacheFollowsTheFileSizeWithinBounds() throws {
        let dir = TemporaryDirectory()
        let small = dir.file("small.bin")
        let large = dir.file("large.bin")
        try Data(count: 100 * 1024).write(to: small)
        try Data(count: 10 * 1024 * 1024).write(to: large)
        #expect(Connection.scanCacheSize(forFileAt: small.path) == -2000)
        #expect(Connection.scanCacheSize(forFileAt: large.path) == -(15 * 1024 + 256))
        // Past the limit, the limit.
        #expect(Connection.scanCacheSize(forFileAt: large.path, limitKiB: 8 * 1024) == -(8 * 1024))
        #expect(Connection.scanCacheSize(forFileAt: dir.file("missing").path) == -2000)
        // A larger cache already in place is kept.
        #expect(Connection.scanCacheSize(forFileAt: large.path, atLeast: -65536) == -65536)
        #expect(Connection.scanCacheSize(forFileAt: large.path, atLeast: 50000) == 50000)
        #expect(Connection.scanCacheSize(forFileAt: large.path, atLeast: -2000) == -(15 * 1024 + 256))
    }

    @Test("the limit stays between 32 MiB and 1 GiB, whatever the machine's memory")
    func theLimitIsBounded() {
        #expect((32 * 1024...1024 * 1024).contains(Connection.scanCacheLimitKiB))
    }

    @Test func decryptLeavesTheOpenConnectionsCacheSizeAsItWas() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)")
        try manager.transactionSync { db in
            for index in 0..<500 { try db.execute("INSERT INTO t(v) VALUES (?)", String(repeating: "x", count: index % 300)) }
        }
        try manager.execute("PRAGMA cache_size = -1234")
        try manager.decrypt(to: dir.file("plain.db"))
        #expect(try manager.scalar(Int.self, "PRAGMA cache_size") == -1234)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 500)
    }
}
