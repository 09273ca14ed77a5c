import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// ``StatementArguments``: array and dictionary literals, values built at run time, and the
/// argument-count errors, through every `arguments:` overload.
@Suite struct StatementArgumentsTests {
    private func openManager(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        try dir.createdManager(table: "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL, d BLOB)")
    }

    private func count(_ db: Database) throws -> Int { try db.scalar(Int.self, "SELECT count(*) FROM t") ?? -1 }

    @Test func anArrayLiteralBindsInOrderWithNilAsNull() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let blob = Data([0, 1, 2])
        let missing: Int? = nil
        try manager.withDatabase { db in
            try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", arguments: [1, "héllo", nil, 2.5, blob])
            try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)").execute(arguments: [2, nil, missing, nil, Data()])
            #expect(
                try db.fetchOne("SELECT a, b, c, d FROM t WHERE id = ?", arguments: [1])?.values == [
                    .text("héllo"), .null, .real(2.5), .blob(blob),
                ])
            #expect(
                try db.fetchOne("SELECT a, b, c, d FROM t WHERE id = ?", arguments: [2])?.values == [.null, .null, .null, .blob(Data())])
            #expect(try db.fetchAll("SELECT id FROM t WHERE a IS ? ORDER BY id", arguments: [nil]).map { $0[0] } == [.integer(2)])
            #expect(try db.scalar(String.self, "SELECT a FROM t WHERE id = ? AND c = ?", arguments: [1, 2.5]) == "héllo")
            #expect(try db.decodeScalar(Int?.self, "SELECT b FROM t WHERE id = ?", arguments: [1]) == nil)
            let cursor = try db.fetchCursor("SELECT id FROM t WHERE id >= ? ORDER BY id", arguments: [1])
            #expect(try cursor.next()?.int64(0) == 1)
            #expect(try cursor.next()?.int64(0) == 2)
            #expect(try cursor.next() == nil)
            var seen: [Int64] = []
            try db.forEachRow("SELECT id FROM t WHERE d = ?", arguments: [blob]) { seen.append($0.int64(0)) }
            #expect(seen == [1])
            #expect(try db.fetchAll("SELECT id FROM t", arguments: []).count == 2)
        }
    }

    @Test func aDictionaryLiteralBindsByNameWithOrWithoutThePrefix() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        struct Item: Decodable, Equatable {
            var id: Int64
            var a: String?
        }
        try manager.withDatabase { db in
            try db.execute("INSERT INTO t(id, a, b) VALUES (:id, :a, @b)", arguments: [":id": 3, "a": "three", "@b": nil])
            try db.execute("INSERT INTO t(id, a, b) VALUES ($id, $a, :b)", arguments: ["id": 4, "$a": nil, "b": 40])
            #expect(try db.fetchOne("SELECT a, b FROM t WHERE id = :id", arguments: ["id": 3])?.values == [.text("three"), .null])
            #expect(try db.fetchOne("SELECT a, b FROM t WHERE id = :id", arguments: [":id": 4])?.values == [.null, .integer(40)])
            #expect(
                try db.fetchAll(Item.self, "SELECT id, a FROM t WHERE id >= :low ORDER BY id", arguments: [":low": 3]) == [
                    Item(id: 3, a: "three"), Item(id: 4, a: nil),
                ])
            #expect(try db.fetchOne(Item.self, "SELECT id, a FROM t WHERE b = :b", arguments: ["b": 40]) == Item(id: 4, a: nil))
        }
    }

    @Test func valuesBuiltAtRunTimeBindAsLiteralsDo() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let ids: [Int64] = [5, 6, 7]
        let rows: [[DatabaseValue]] = ids.map { [.integer($0), .text("row \($0)")] }
        let mixed: [(any DatabaseValueConvertible)?] = [8, nil, 3.5]
        let named: [String: DatabaseValue] = [":id": .integer(9), ":a": .text("nine")]
        try manager.withDatabase { db in
            for row in rows { try db.execute("INSERT INTO t(id, a) VALUES (?, ?)", arguments: StatementArguments(row)) }
            try db.execute("INSERT INTO t(id, a, c) VALUES (?, ?, ?)", arguments: StatementArguments(mixed))
            try db.execute("INSERT INTO t(id, a) VALUES (:id, :a)", arguments: StatementArguments(named))
            let marks = ids.map { _ in "?" }.joined(separator: ", ")
            let args = StatementArguments(ids)
            #expect(args.count == 3 && !args.isEmpty && StatementArguments().isEmpty)
            let texts = try db.fetchAll("SELECT a FROM t WHERE id IN (\(marks)) ORDER BY id", arguments: args).map { $0[0] }
            #expect(texts == ids.map { .text("row \($0)") })
            #expect(try db.fetchOne("SELECT a, c FROM t WHERE id = 8", arguments: [])?.values == [.null, .real(3.5)])
            #expect(try db.scalar(String.self, "SELECT a FROM t WHERE id = :id", arguments: [":id": 9]) == "nine")
        }
    }

    @Test func argumentsSendAcrossTasks() async throws {
        let arguments: StatementArguments = [1, "a", nil, Data([1])]
        let named: StatementArguments = [":id": 3, ":title": nil]
        let counts = await Task.detached { (arguments.count, named.count) }.value
        #expect(counts == (4, 2))
    }

    @Test func aWrongCountOrAMissingNameThrowsRangeAndWritesNothing() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let insert = "INSERT INTO t(id, a) VALUES (?, ?)"
        let named = "INSERT INTO t(id, a) VALUES (:id, :a)"
        let cases: [(String, StatementArguments, String)] = [
            (insert, [1], "1 given, 2 expected"),
            (insert, [1, "a", nil], "3 given, 2 expected"),
            (insert, [], "0 given, 2 expected"),
            (insert, StatementArguments([DatabaseValue.integer(1)]), "1 given, 2 expected"),
            (named, [":id": 1], "no value for the parameter :a"),
            (named, [":id": 1, ":a": "x", ":typo": 2], ":typo"),
            (insert, [":id": 1, ":a": "x"], "positional"),
        ]
        try manager.withDatabase { db in
            for (sql, arguments, message) in cases {
                let error = thrownError { try db.execute(sql, arguments: arguments) } as? SQLiteError
                #expect(error?.code == .range, "\(sql) with \(arguments.count) values")
                #expect(error?.message?.contains(message) == true, "\(error?.message ?? "no error")")
                let prepared = thrownError { try db.prepare(sql).execute(arguments: arguments) } as? SQLiteError
                #expect(prepared?.code == .range)
                let fetch = thrownError { _ = try db.fetchAll(sql, arguments: arguments) } as? SQLiteError
                #expect(fetch?.code == .range)
                let cursor = thrownError { _ = try db.fetchCursor(sql, arguments: arguments) } as? SQLiteError
                #expect(cursor?.code == .range)
            }
            #expect(try count(db) == 0)
            try db.execute(insert, arguments: [1, "fits"])
            #expect(try count(db) == 1)
        }
    }

    /// Texts and blobs bound through a binder are the statement's own copies, lent to SQLite:
    /// a pass that outgrows its block, a later smaller pass, the fixed-arity path and the
    /// `arguments:` path on the same cached statement each store exactly their own values.
    @Test func lentCopiesSurviveGrowthAndReuseAcrossPasses() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let insert = "INSERT INTO t VALUES (?, ?, ?, ?, ?)"
        let long = String(repeating: "é", count: 700)
        let blob = Data((0..<3000).map { UInt8($0 % 251) })
        let expected: [[DatabaseValue]] = [
            [.integer(1), .text("short"), .integer(2), .real(0.5), .blob(Data())],
            [.integer(2), .text(long), .integer(3), .real(1.5), .blob(blob)],
            [.integer(3), .text("x"), .integer(4), .real(2.5), .blob(Data([9]))],
            [.integer(4), .text(long + "!"), .null, .null, .blob(blob + blob)],
            [.integer(5), .text(""), .integer(6), .real(3.5), .blob(Data([7, 7]))],
        ]
        try manager.withDatabase { db in
            try db.execute(insert, 1, "short", 2, 0.5, Data())
            try db.execute(insert, 2, long, 3, 1.5, blob)
            try db.execute(insert, 3, "x", 4, 2.5, Data([9]))
            try db.execute(insert, arguments: [4, long + "!", nil, nil, blob + blob])
            try db.execute("DELETE FROM t WHERE id = ?", 99)
            try db.prepare(insert).execute(arguments: [5, "", 6, 3.5, Data([7, 7])])
            let rows = try db.fetchAll("SELECT * FROM t ORDER BY id").map(\.values)
            #expect(rows == expected)
            #expect(try db.fetchOne("SELECT id FROM t WHERE a = ? AND d = ?", long, blob)?.values == [.integer(2)])
            #expect(try db.fetchOne("SELECT id FROM t WHERE a = :a", arguments: [":a": long + "!"])?.values == [.integer(4)])
        }
    }
}
