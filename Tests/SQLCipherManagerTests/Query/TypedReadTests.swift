import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Throwing reads that say which column and why, named parameters, `Decodable` rows.
@Suite struct TypedReadTests {
    private func notes(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        let manager = try dir.createdManager(
            table: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, score REAL, tags TEXT, kind TEXT)")
        try manager.execute(
            "INSERT INTO note(title, body, score, tags, kind) VALUES (?, ?, ?, ?, ?)", "First", "text", 1.5, "[\"a\",\"b\"]", "todo")
        try manager.execute("INSERT INTO note(title, body, score, tags, kind) VALUES (?, ?, ?, ?, ?)", "Second", nil, 2, "[]", "done")
        return manager
    }

    private func message(_ body: () throws -> Void) -> (code: ResultCode?, text: String) {
        let error = thrownError(body) as? SQLiteError
        return (error?.code, error?.message ?? "no SQLiteError")
    }

    // MARK: - Row and scalar reads

    @Test func throwingReadsNameTheColumnAndTheReason() throws {
        let dir = TemporaryDirectory()
        let manager = try notes(dir)
        let row = try #require(try manager.fetchOne("SELECT id, title, body FROM note WHERE id = 2"))
        #expect(try row.decode(Int64.self, at: 0) == 2)
        #expect(try row.decode(String.self, column: "title") == "Second")
        #expect(try row.decode(String?.self, column: "body") == nil)
        // The optional accessors still answer nil for all of these.
        #expect(row.value("nonexistent", as: String.self) == nil)
        #expect(row.value(1, as: Int.self) == nil)

        let missing = message { _ = try row.decode(String.self, column: "nonexistent") }
        #expect(missing.code == .range)
        #expect(missing.text.contains("\"nonexistent\"") && missing.text.contains("id, title, body"))
        let outOfRange = message { _ = try row.decode(Int.self, at: 7) }
        #expect(outOfRange.code == .range)
        #expect(outOfRange.text.contains("7") && outOfRange.text.contains("3 columns"))
        let text = message { _ = try row.decode(Int.self, column: "title") }
        #expect(text.code == .mismatch)
        #expect(text.text.contains("\"title\" (index 1) holds TEXT") && text.text.contains("Int"))
        #expect(!text.text.contains("Second"), "a value never appears in an error")
        let null = message { _ = try row.decode(String.self, column: "body") }
        #expect(null.code == .mismatch)
        #expect(null.text.contains("NULL") && null.text.contains("Optional"))
    }

    @Test func decodeScalarSaysWhyWhereScalarSaysNil() throws {
        let dir = TemporaryDirectory()
        let manager = try notes(dir)
        #expect(try manager.decodeScalar(Int.self, "SELECT count(*) FROM note") == 2)
        #expect(try manager.decodeScalar(String?.self, "SELECT body FROM note WHERE id = 2") == nil)
        #expect(try manager.scalar(Int.self, "SELECT title FROM note WHERE id = 1") == nil)
        let error = try #require(
            thrownError { _ = try manager.decodeScalar(Int.self, "SELECT title FROM note WHERE id = ?", 1) } as? SQLiteError)
        #expect(error.code == .mismatch)
        #expect(error.sql == "SELECT title FROM note WHERE id = ?")
        let none = try #require(thrownError { _ = try manager.decodeScalar(Int.self, "SELECT id FROM note WHERE id = 99") } as? SQLiteError)
        #expect(none.code == .notFound)
        #expect(none.message == "the query returned no row")
        let null = try #require(thrownError { _ = try manager.decodeScalar(Int.self, "SELECT NULL") } as? SQLiteError)
        #expect(null.code == .mismatch)
    }

    @Test func rowViewsDecodeInPlaceWithTheSameErrors() throws {
        let dir = TemporaryDirectory()
        let manager = try notes(dir)
        var titles: [String] = []
        var notes: [Note] = []
        var errors: [ResultCode?] = []
        try manager.withDatabase { db in
            try db.forEachRow("SELECT id, title, body, score, tags, kind FROM note ORDER BY id") { row in
                titles.append(try row.decode(String.self, at: 1))
                notes.append(try row.decode(Note.self))
                errors.append((thrownError { _ = try row.decode(Int.self, at: 1) } as? SQLiteError)?.code)
                errors.append((thrownError { _ = try row.decode(Int.self, at: 6) } as? SQLiteError)?.code)
            }
        }
        #expect(titles == ["First", "Second"])
        #expect(notes.map(\.kind) == [.todo, .done])
        #expect(errors == [.mismatch, .range, .mismatch, .range])
    }

    // MARK: - Named parameters

    @Test func namedParametersBindWithEveryPrefixAndWithOrWithoutIt() throws {
        let dir = TemporaryDirectory()
        let manager = try notes(dir)
        try manager.execute(
            "INSERT INTO note(title, body, score) VALUES (:title, @body, $score)",
            arguments: ["title": "Third", "@body": nil, "$score": 3.25])
        let row = try #require(try manager.fetchOne("SELECT title, body, score FROM note WHERE title = :t", arguments: [":t": "Third"]))
        #expect(row.values == [.text("Third"), .null, .real(3.25)])
        // A name used twice is one parameter.
        let rows = try manager.fetchAll("SELECT id FROM note WHERE title = :t OR body = :t", arguments: ["t": "text"])
        #expect(rows.map { $0[0] } == [.integer(1)])
        try manager.withDatabase { db throws in
            try db.execute("UPDATE note SET body = :b WHERE id = :id", arguments: ["b": "new", "id": 2])
            #expect(try db.fetchAll("SELECT id FROM note WHERE body = :b", arguments: ["b": "new"]).map { $0[0] } == [.integer(2)])
            #expect(try db.fetchOne("SELECT title FROM note WHERE id = :id", arguments: ["id": 1])?[0] == .text("First"))
        }
    }

    @Test func namedParameterMistakesAreTypedErrorsAndWriteNothing() throws {
        let dir = TemporaryDirectory()
        let manager = try notes(dir)
        let insert = "INSERT INTO note(title, body) VALUES (:title, :body)"
        let missing = message { try manager.execute(insert, arguments: ["title": "x"]) }
        #expect(missing.code == .range)
        #expect(missing.text == "no value for the parameter :body")
        let typo = message { try manager.execute(insert, arguments: ["title": "x", "body": "y", "bdy": "z"]) }
        #expect(typo.code == .range)
        #expect(typo.text.contains("bdy") && typo.text.contains(":title, :body"))
        let positional = message { try manager.execute("INSERT INTO note(title) VALUES (?)", arguments: ["title": "x"]) }
        #expect(positional.code == .range)
        #expect(positional.text.contains("positional"))
        #expect(try manager.decodeScalar(Int.self, "SELECT count(*) FROM note") == 2)
    }

    // MARK: - Decodable rows

    enum Kind: String, Decodable { case todo, done }

    struct Note: Decodable, Equatable {
        var id: Int64
        var title: String
        var body: String?
        var score: Double
        var tags: [String]
        var kind: Kind
    }

    @Test func decodableRowsFromTheManagerTheDatabaseAndARow() throws {
        let dir = TemporaryDirectory()
        let manager = try notes(dir)
        let sql = "SELECT id, title, body, score, tags, kind FROM note ORDER BY id"
        let first = Note(id: 1, title: "First", body: "text", score: 1.5, tags: ["a", "b"], kind: .todo)
        let second = Note(id: 2, title: "Second", body: nil, score: 2, tags: [], kind: .done)
        #expect(try manager.fetchAll(Note.self, sql) == [first, second])
        #expect(try manager.fetchOne(Note.self, sql) == first)
        #expect(try manager.fetchOne(Note.self, "SELECT * FROM note WHERE id = ?", 3) == nil)
        #expect(try manager.fetchAll(Note.self, "SELECT * FROM note WHERE kind = :kind", arguments: ["kind": "done"]) == [second])
        #expect(try manager.fetchOne(Note.self, "SELECT * FROM note WHERE id = :id", arguments: ["id": 2]) == second)
        let row = try #require(try manager.fetchOne(sql))
        #expect(try row.decode(Note.self) == first)
        try manager.withDatabase { db throws in
            #expect(try db.fetchAll(Note.self, "SELECT * FROM note WHERE id > ?", 1) == [second])
            #expect(try db.fetchOne(Note.self, "SELECT * FROM note WHERE id = :id", arguments: ["id": 1]) == first)
            #expect(try db.fetchAll(Note.self, sql, arguments: [:]).count == 2)
        }
        // A single-value type reads the first column.
        #expect(try manager.fetchAll(String.self, "SELECT title FROM note ORDER BY id") == ["First", "Second"])
        #expect(try manager.fetchAll(Kind.self, "SELECT kind FROM note ORDER BY id") == [.todo, .done])
    }

    struct Renamed: Decodable {
        var name: String
        var extra: Int?
        enum CodingKeys: String, CodingKey {
            case name = "title"
            case extra
        }
    }

    struct Small: Decodable {
        var id: UInt8
        var score: Float
    }

    @Test func decodingFailuresNameTheColumn() throws {
        let dir = TemporaryDirectory()
        let manager = try notes(dir)
        // CodingKeys map column names; a missing column is nil for an optional property.
        #expect(try manager.fetchAll(Renamed.self, "SELECT title FROM note ORDER BY id").map(\.name) == ["First", "Second"])
        #expect(
            try manager.fetchOne(Small.self, "SELECT id, score FROM note WHERE id = 1").map { [Double($0.id), Double($0.score)] } == [
                1, 1.5,
            ])

        let sql = "SELECT id, title, score, tags, kind FROM note"  // no body: optional, fine
        let missing = try #require(thrownError { _ = try manager.fetchAll(Note.self, "SELECT id, title FROM note") } as? SQLiteError)
        #expect(missing.code == .range)
        #expect(missing.message?.contains("\"score\"") == true)
        #expect(missing.sql == "SELECT id, title FROM note")
        #expect(try manager.fetchAll(Note.self, sql).count == 2)
        let wrongType = try #require(
            thrownError {
                _ = try manager.fetchAll(Note.self, "SELECT title AS id, title, score, tags, kind FROM note")
            } as? SQLiteError)
        #expect(wrongType.code == .mismatch)
        #expect(wrongType.message?.contains("\"id\" (index 0) holds TEXT, which cannot be read as Int64") == true)
        let badJSON = try #require(
            thrownError {
                _ = try manager.fetchAll(Note.self, "SELECT id, title, score, title AS tags, kind FROM note")
            } as? SQLiteError)
        #expect(badJSON.code == .mismatch)
        #expect(badJSON.message?.contains("\"tags\"") == true)
        let tooBig = try #require(thrownError { _ = try manager.fetchOne(Small.self, "SELECT 300 AS id, 1.0 AS score") } as? SQLiteError)
        #expect(tooBig.message?.contains("UInt8") == true)
    }
}
