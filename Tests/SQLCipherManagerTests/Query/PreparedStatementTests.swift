import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `Database.prepare` / `PreparedStatement` and `forEachRow` / `RowView`.
@Suite struct PreparedStatementTests {
    private func openManager(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL, d BLOB)")
    }

    @Test func executeRunsOnceForEachCallWithItsOwnValues() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.transactionSync { db in
            let insert = try db.prepare("INSERT INTO t(id, a, b, c, d) VALUES (?, ?, ?, ?, ?)")
            #expect(insert.sql == "INSERT INTO t(id, a, b, c, d) VALUES (?, ?, ?, ?, ?)")
            for index in 1...100 {
                try insert.execute(index, "text \(index) héllo 🔐", Int64(index * 3), Double(index) / 4, Data([UInt8(index)]))
            }
            try insert.execute(101, String?.none, true, 0.0, Data())
        }
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 101)
        #expect(try manager.scalar(Int.self, "SELECT sum(b) FROM t WHERE id <= 100") == 3 * 5050)
        let last = try #require(try manager.fetchOne("SELECT a, b, d FROM t WHERE id = 101"))
        #expect(last[0] == .null)
        #expect(last[1] == .integer(1))
        #expect(last[2] == .blob(Data()))
    }

    @Test func rowViewsReadColumnsInPlace() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.execute("INSERT INTO t(id, a, b, c, d) VALUES (1, 'héllo', 42, 2.5, x'00ff'), (2, NULL, NULL, NULL, NULL)")
        var seen: [Row] = []
        try manager.withDatabase { db in
            try db.forEachRow("SELECT id, a, b, c, d FROM t ORDER BY id") { row in
                #expect(row.count == 5)
                #expect(row.columnNames == ["id", "a", "b", "c", "d"])
                if row.int64(0) == 1 {
                    #expect(row.text(1) == "héllo")
                    #expect(row.int64(2) == 42)
                    #expect(row.double(3) == 2.5)
                    #expect(row[4] == .blob(Data([0, 255])))
                    #expect(row.value(2, as: Int.self) == 42)
                    #expect(row.withUTF8(1) { Array($0) } == Array("héllo".utf8))
                } else {
                    #expect(row.isNull(1) && row.text(1) == nil)
                    #expect(row.withUTF8(1) { $0.count } == 0)
                    #expect(row.int64(2) == 0 && row.value(2, as: Int?.self) == .some(nil))
                }
                seen.append(row.row)
            }
        }
        #expect(seen.map { $0.value(0, as: Int.self) } == [1, 2])
        #expect(seen[0]["a"] == .text("héllo"))
    }

    @Test func preparedQueriesBindTheirArgumentsEachRun() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.execute("INSERT INTO t(id, b) VALUES (1, 10), (2, 20), (3, 30)")
        try manager.withDatabase { db in
            let lookup = try db.prepare("SELECT b FROM t WHERE id = ?")
            var values: [Int64] = []
            for id in [3, 1, 2, 9] {
                try lookup.forEachRow(id) { row in values.append(row.int64(0)) }
            }
            #expect(values == [30, 10, 20])
            #expect(try lookup.fetchOne(2)?.value(0, as: Int.self) == 20)
            #expect(try lookup.fetchOne(9) == nil)
            let range = try db.prepare("SELECT count(*) FROM t WHERE b BETWEEN ? AND ?")
            #expect(try range.fetchOne(15, 35)?.value(0, as: Int.self) == 2)
        }
    }

    @Test func aWrongArgumentCountThrowsRangeAndTheStatementStaysUsable() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.withDatabase { db in
            let insert = try db.prepare("INSERT INTO t(a, b) VALUES (?, ?)")
            for attempt in 0..<2 {
                do {
                    if attempt == 0 { try insert.execute("only one") } else { try insert.execute("a", 1, 2) }
                    Issue.record("expected a range error")
                } catch let error as SQLiteError {
                    #expect(error.code == .range)
                }
            }
            try insert.execute("a", 1)
        }
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 1)
        #expect(throws: SQLiteError.self) { try manager.withDatabase { _ = try $0.prepare("SELEKT 1") } }
    }

    @Test func aThrowingBodyLeavesTheStatementResetAndAClosedDatabaseThrowsMisuse() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.execute("INSERT INTO t(id) VALUES (1), (2)")
        struct Stop: Error {}
        var statement: PreparedStatement?
        try manager.withDatabase { db in
            #expect(throws: Stop.self) { try db.forEachRow("SELECT id FROM t") { _ in throw Stop() } }
            let all = try db.prepare("SELECT id FROM t")
            #expect(throws: Stop.self) { try all.forEachRow { _ in throw Stop() } }
            var count = 0
            try all.forEachRow { _ in count += 1 }
            #expect(count == 2)
            statement = all
        }
        // Both reads were reset, so no read lock is left: a write succeeds.
        try manager.execute("INSERT INTO t(id) VALUES (3)")
        manager.close()
        #expect(thrownCase { try statement?.execute() } == "sqlite:21")
    }
}
