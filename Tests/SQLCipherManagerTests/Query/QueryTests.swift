import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite struct QueryTests {
    private func openManager(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        try dir.createdManager(table: "CREATE TABLE v(id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB, n)")
    }

    @Test func valuesRoundTripWithTheirTypes() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let blob = Data([0, 1, 2, 255])
        try manager.execute("INSERT INTO v(i, r, t, b, n) VALUES (?, ?, ?, ?, ?)", Int64.max, 2.5, "héllo 🔐", blob, nil)
        try manager.execute("INSERT INTO v(i, r, t, b, n) VALUES (?, ?, ?, ?, ?)", -1, -0.0, "", Data(), true)
        let rows = try manager.fetchAll("SELECT i, r, t, b, n FROM v ORDER BY id")
        #expect(rows.count == 2)
        #expect(rows[0][0] == .integer(Int64.max))
        #expect(rows[0][1] == .real(2.5))
        #expect(rows[0][2] == .text("héllo 🔐"))
        #expect(rows[0][3] == .blob(blob))
        #expect(rows[0][4] == .null)
        #expect(rows[1].value("t", as: String.self) == "")
        #expect(rows[1]["b"] == .blob(Data()))
        #expect(rows[1].value(4, as: Bool.self) == true)
        #expect(rows[0].value("n", as: Int?.self) == .some(nil))
        #expect(rows[0].columnNames == ["i", "r", "t", "b", "n"])
    }

    @Test func scalarsAndMissingRows() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM v") == 0)
        #expect(try manager.fetchOne("SELECT * FROM v WHERE id = ?", 42) == nil)
        #expect(try manager.scalar(String.self, "SELECT t FROM v") == nil)
        #expect(try manager.scalar(Double.self, "SELECT 1.5 + ?", 1) == 2.5)
    }

    @Test func changesAndLastInsertRowID() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.withDatabase { db in
            try db.execute("INSERT INTO v(i) VALUES (1), (2), (3)")
            #expect(db.changes == 3)
            #expect(db.lastInsertRowID == 3)
            try db.execute("UPDATE v SET i = i + 1 WHERE i > ?", 1)
            #expect(db.changes == 2)
        }
    }

    @Test func transactionRollsBackOnThrow() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        #expect(throws: TestFailure.self) {
            try manager.transactionSync { db in
                try db.execute("INSERT INTO v(i) VALUES (1)")
                throw TestFailure()
            }
        }
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM v") == 0)
        #expect(try manager.withDatabase { !$0.isInTransaction })
    }

    @Test func nestedTransactionsUseSavepoints() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.transactionSync { db in
            try db.execute("INSERT INTO v(i) VALUES (1)")
            try? db.transaction { inner in
                try inner.execute("INSERT INTO v(i) VALUES (2)")
                throw TestFailure()
            }
            try db.transaction { inner in try inner.execute("INSERT INTO v(i) VALUES (3)") }
        }
        let values = try manager.fetchAll("SELECT i FROM v ORDER BY i").compactMap { $0.value(0, as: Int.self) }
        #expect(values == [1, 3])
    }

    @Test func sqlErrorsAreSQLiteErrorsWithTheSQLButNoBoundValues() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.execute("CREATE TABLE u(x TEXT UNIQUE)")
        try manager.execute("INSERT INTO u(x) VALUES (?)", "bound-secret-value")
        do {
            try manager.execute("INSERT INTO u(x) VALUES (?)", "bound-secret-value")
            Issue.record("expected a constraint error")
        } catch let error as SQLiteError {
            #expect(error.code == .constraint)
            #expect(error.extendedCode.rawValue == 2067)  // SQLITE_CONSTRAINT_UNIQUE
            #expect(error.sql == "INSERT INTO u(x) VALUES (?)")
            #expect(!error.description.contains("bound-secret-value"))
        }
        #expect(throws: SQLiteError.self) { try manager.execute("SELEKT 1") }
        do {
            try manager.execute("INSERT INTO u(x) VALUES (?)")
        } catch let error as SQLiteError {
            #expect(error.code == .range)
        }
    }

    @Test func scriptsRunEveryStatement() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.executeScript(
            """
            CREATE TABLE a(x); INSERT INTO a VALUES (1);
            INSERT INTO a VALUES (2);
            """)
        #expect(try manager.scalar(Int.self, "SELECT sum(x) FROM a") == 3)
    }

    @Test func queriesOnAClosedManagerThrowNotOpen() {
        let manager = DatabaseManager(url: TemporaryDirectory().file())
        #expect(throws: DatabaseManagerError.notOpen) { try manager.execute("SELECT 1") }
        #expect(throws: DatabaseManagerError.notOpen) { _ = try manager.fetchAll("SELECT 1") }
        #expect(throws: DatabaseManagerError.notOpen) { try manager.setSchemaVersion(1) }
    }

    @Test func negativeSchemaVersionIsRejected() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        #expect(thrownCase { try manager.setSchemaVersion(-1) } == "invalidOption")
        try manager.setSchemaVersion(12)
        #expect(try manager.schemaVersion == 12)
    }
}

@Suite struct StatementLifetimeTests {
    @Test func anAbandonedIterationReleasesItsReadLock() throws {
        let dir = TemporaryDirectory()
        let writer = dir.manager()
        try writer.create(password: "secret")
        try writer.execute("CREATE TABLE t(x)")
        try writer.execute("INSERT INTO t VALUES (1), (2), (3)")
        let reader = dir.manager { $0.busyTimeout = .zero }
        try reader.open(password: "secret")
        #expect(throws: TestFailure.self) {
            try reader.withDatabase { db in
                try db.forEachRow("SELECT x FROM t") { _ in throw TestFailure() }
            }
        }
        // Had the reader kept its SHARED lock, this write would fail with SQLITE_BUSY.
        try writer.execute("INSERT INTO t VALUES (4)")
        #expect(try reader.scalar(Int.self, "SELECT count(*) FROM t") == 4)
    }
}

@Suite struct SingleStatementTests {
    @Test func executeRefusesSeveralStatementsInsteadOfDroppingTheRest() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE t(x);  -- trailing comment\n ;")
        for sql in ["INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)", "SELECT 1; DROP TABLE t", "SELECT 1; nonsense"] {
            do {
                _ = try manager.fetchAll(sql)
                Issue.record("\(sql) should be refused")
            } catch let error as SQLiteError {
                #expect(error.code == .misuse)
                #expect(error.message?.contains("executeScript") == true)
            }
        }
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 0)
        try manager.executeScript("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 2)
    }
}
