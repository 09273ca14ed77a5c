import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `Database.execute` / `fetchOne` / `scalar` / `fetchCursor` with their arguments as a
/// parameter pack, beside the `arguments:` overloads that a bare `nil` takes.
@Suite struct PackArgumentsTests {
    private func openManager(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL, d BLOB)")
    }

    @Test func mixedLiteralsOptionalsAndNilBindInEveryOverload() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let missing: String? = nil
        try manager.withDatabase { db in
            try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", 1, "héllo 🔐", Int64(2), 2.5, Data([1, 2]))
            try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", arguments: [2, missing, true, nil, Data()])
            try db.execute("INSERT INTO t(id) VALUES (3)")
            let first = try #require(try db.fetchOne("SELECT a, b, c, d FROM t WHERE id = ?", 1))
            #expect(first.values == [.text("héllo 🔐"), .integer(2), .real(2.5), .blob(Data([1, 2]))])
            let second = try #require(try db.fetchOne("SELECT a, b, c, d FROM t WHERE id = ?", Int64(2)))
            #expect(second.values == [.null, .integer(1), .null, .blob(Data())])
            #expect(try db.scalar(Int.self, "SELECT count(*) FROM t") == 3)
            #expect(try db.scalar(String.self, "SELECT a FROM t WHERE id = ? AND b = ?", 1, 2) == "héllo 🔐")
            #expect(try db.scalar(Int.self, "SELECT b FROM t WHERE id = ?", arguments: [nil]) == nil)
            let cursor = try db.fetchCursor("SELECT id FROM t WHERE id >= ? AND id <= ? ORDER BY id", 2, Int32(3))
            #expect(try cursor.next()?.int64(0) == 2)
            #expect(try cursor.next()?.int64(0) == 3)
            #expect(try cursor.next() == nil)
        }
    }

    @Test func theManagersCallsTakeThePackToo() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let missing: Double? = nil
        try manager.execute("INSERT INTO t(id, a, b, c) VALUES (?, ?, ?, ?)", 1, "one", Int64(10), 0.5)
        try manager.execute("INSERT INTO t(id, a, b, c) VALUES (?, ?, ?, ?)", 2, nil, true, missing)
        try manager.execute("INSERT INTO t(id) VALUES (3)")
        #expect(try manager.fetchOne("SELECT a, b, c FROM t WHERE id = ?", 1)?.values == [.text("one"), .integer(10), .real(0.5)])
        #expect(try manager.fetchOne("SELECT a, b, c FROM t WHERE id = ?", Int64(2))?.values == [.null, .integer(1), .null])
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 3)
        #expect(try manager.scalar(String.self, "SELECT a FROM t WHERE id = ? AND b = ?", 1, 10) == "one")
        let error = thrownError { try manager.execute("INSERT INTO t(id, a) VALUES (?, ?)", 9) } as? SQLiteError
        #expect(error?.code == .range)
        manager.close()
        #expect(throws: DatabaseManagerError.notOpen) { _ = try manager.fetchOne("SELECT a FROM t WHERE id = ?", 1) }
    }

    @Test func aRunKeepsNoBindingOfThePreviousOne() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.withDatabase { db in
            // The pack path rebinds every parameter instead of clearing them: a NULL after a
            // text, and a text after the `arguments:` path's NULL, each land as given.
            let sql = "INSERT INTO t(id, a) VALUES (?, ?)"
            try db.execute(sql, 1, "one")
            try db.execute(sql, 2, String?.none)
            try db.execute(sql, arguments: [3, nil])
            try db.execute(sql, 4, "four")
            let values = try db.fetchAll("SELECT a FROM t ORDER BY id").map { $0[0] }
            #expect(values == [.text("one"), .null, .null, .text("four")])
        }
    }

    /// Small (inline) and heap strings, empty, non-ASCII, with a NUL, built from an `NSString`
    /// or a `Substring`: each binds exactly its UTF-8 as TEXT (never NULL) through the pack of
    /// `execute` and of a `PreparedStatement`, and through `arguments:`.
    @Test func everyKindOfStringBindsExactlyItsUTF8AsText() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let long = String(repeating: "é🔐x", count: 300)
        let texts = [
            "", "a", String(repeating: "b", count: 15), String(repeating: "c", count: 16), "a\u{0}b", long,
            String(NSString(string: "from NSString, longer than fifteen bytes")), String(long.dropFirst(7).prefix(40)),
        ]
        try manager.withDatabase { db in
            let insert = try db.prepare("INSERT INTO t(id, a) VALUES (?, ?)")
            for (offset, text) in texts.enumerated() {
                try db.execute("INSERT INTO t(id, a) VALUES (?, ?)", offset, text)
                try insert.execute(100 + offset, text)
                try db.execute(
                    "INSERT INTO t(id, a) VALUES (?, ?)", arguments: [DatabaseValue.integer(Int64(200 + offset)), DatabaseValue.text(text)])
            }
            for (offset, text) in texts.enumerated() {
                for id in [offset, 100 + offset, 200 + offset] {
                    let row = try #require(try db.fetchOne("SELECT typeof(a), hex(a) FROM t WHERE id = ?", id))
                    #expect(row[0] == .text("text"))
                    #expect(row[1] == .text(text.utf8.map { String(format: "%02X", $0) }.joined()))
                }
            }
        }
    }

    @Test func aWrongCountThrowsRangeAndAClosedDatabaseMisuse() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let db = try manager.withDatabase { db in
            let error = thrownError { try db.execute("INSERT INTO t(id, a) VALUES (?, ?)", 1) } as? SQLiteError
            #expect(error?.code == .range)
            let lookup = thrownError { _ = try db.fetchOne("SELECT a FROM t WHERE id = ?", 1, 2) } as? SQLiteError
            #expect(lookup?.code == .range)
            let cursor = thrownError { _ = try db.fetchCursor("SELECT a FROM t WHERE id = ?", 1, 2) } as? SQLiteError
            #expect(cursor?.code == .range)
            try db.execute("INSERT INTO t(id, a) VALUES (?, ?)", 1, "after")
            #expect(try db.fetchCursor("SELECT a FROM t WHERE id = ?", 1).next()?.text(0) == "after")
            return db
        }
        manager.close()
        for body in [
            { try db.execute("INSERT INTO t(id) VALUES (?)", 9) },
            { _ = try db.fetchOne("SELECT a FROM t WHERE id = ?", 1) },
            { _ = try db.scalar(Int.self, "SELECT b FROM t WHERE id = ?", 1) },
            { _ = try db.fetchCursor("SELECT a FROM t WHERE id = ?", 1) },
        ] as [() throws -> Void] {
            #expect((thrownError(body) as? SQLiteError)?.code == .misuse)
        }
    }
}
