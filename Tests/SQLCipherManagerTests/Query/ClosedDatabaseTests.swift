import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// A `Database` kept past its closure and used after `close()` throws; it never calls into
/// the freed handle (make sanitize runs this under AddressSanitizer).
@Suite struct ClosedDatabaseTests {
    private func isClosedMisuse(_ body: () throws -> Void) -> Bool {
        guard let error = thrownError(body) as? SQLiteError else { return false }
        return error.code == .misuse && (error.message ?? "").contains("closed")
    }

    @Test func everyEntryPointOfAnEscapedDatabaseThrowsMisuseAfterClose() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, x)")
        try manager.execute("INSERT INTO t(x) VALUES (1)")
        let db = try manager.withDatabase { $0 }
        manager.close()
        #expect(isClosedMisuse { try db.execute("INSERT INTO t(x) VALUES (2)") })
        #expect(isClosedMisuse { try db.execute("INSERT INTO t(x) VALUES (?)", arguments: [DatabaseValue.integer(2)]) })
        #expect(isClosedMisuse { try db.execute("INSERT INTO t(x) VALUES (:x)", arguments: ["x": 2]) })
        #expect(isClosedMisuse { try db.executeScript("SELECT 1; SELECT 2") })
        #expect(isClosedMisuse { _ = try db.fetchAll("SELECT x FROM t") })
        #expect(isClosedMisuse { _ = try db.fetchOne("SELECT x FROM t") })
        #expect(isClosedMisuse { _ = try db.scalar(Int.self, "SELECT x FROM t") })
        #expect(isClosedMisuse { _ = try db.decodeScalar(Int.self, "SELECT x FROM t") })
        #expect(isClosedMisuse { _ = try db.fetchAll(Int.self, "SELECT x FROM t") })
        #expect(isClosedMisuse { try db.forEachRow("SELECT x FROM t") { _ in } })
        #expect(isClosedMisuse { try db.forEachRow("SELECT x FROM t") { _ in } })
        #expect(isClosedMisuse { try db.forEachStatement(in: "SELECT 1") { _ in } })
        #expect(isClosedMisuse { _ = try db.prepare("SELECT 1") })
        #expect(isClosedMisuse { _ = try db.schemaVersion })
        #expect(isClosedMisuse { try db.setSchemaVersion(3) })
        #expect(isClosedMisuse { try db.transaction { _ in } })
        #expect(db.changes == 0)
        #expect(db.lastInsertRowID == 0)
        #expect(!db.isInTransaction)
        // The file was not touched by any of them.
        try manager.open(password: "secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 1)
    }

    @Test func anEscapedDatabaseStaysClosedWhenTheManagerReopens() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        let old = try manager.withDatabase { $0 }
        try manager.reopen()
        #expect(isClosedMisuse { try old.execute("INSERT INTO t VALUES (1)") })
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test func anEscapedDatabaseOfAReleasedManagerThrows() throws {
        let dir = TemporaryDirectory()
        var manager: DatabaseManager? = try dir.createdManager(table: "CREATE TABLE t(x)")
        let db = try manager!.withDatabase { $0 }
        manager = nil
        #expect(isClosedMisuse { _ = try db.fetchAll("SELECT * FROM t") })
    }

    /// A RowView kept past its closure and read after close stops the process with the
    /// precondition's message (run in a child process by Swift Testing's exit test) instead of
    /// reading the finalized statement; read after its loop, it stops too.
    @Test func anEscapedRowViewStopsAtAPreconditionAfterClose() async throws {
        let stopped = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dir = TemporaryDirectory()
            let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
            try manager.execute("INSERT INTO t VALUES (41)")
            var kept: RowView?
            try manager.withDatabase { db in try db.forEachRow("SELECT x FROM t") { kept = $0 } }
            manager.close()
            // The child stops at the precondition, so no deinit removes its directory: remove it
            // now (the statement the RowView refers to is finalized, not in that directory).
            try FileManager.default.removeItem(at: dir.url)
            _ = kept?.int64(0)
        }
        let message = String(decoding: stopped.standardErrorContent, as: UTF8.self)
        #expect(message.contains("A RowView was used after its database closed"))
        // Read after its loop ended (before close), it stops as well: the statement moved on.
        let ended = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dir = TemporaryDirectory()
            let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
            try manager.execute("INSERT INTO t VALUES (41)")
            var kept: RowView?
            try manager.withDatabase { db in try db.forEachRow("SELECT x FROM t") { kept = $0 } }
            try FileManager.default.removeItem(at: dir.url)
            _ = kept?.int64(0)
        }
        #expect(String(decoding: ended.standardErrorContent, as: UTF8.self).contains("after its statement moved on"))
    }

    @Test func closingInsideATransactionDoesNotTouchTheFreedHandle() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try manager.transactionSync { db in
                try db.execute("INSERT INTO t VALUES (1)")
                manager.close()
                throw Stop()
            }
        }
        #expect(!manager.isOpen)
        try manager.open(password: "secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 0)
    }
}
