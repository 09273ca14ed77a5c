import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// STRICT tables, JSON and FTS5 through the public API where the linked SQLite has them, and
/// SQLite's own error, typed, where it does not (3.15.2 has none of them).
@Suite struct ModernSQLTests {
    private struct Part: Codable, Equatable, TableRecord {
        static let databaseTableName = "part"
        var id: Int64?
        var name: String
        var quantity: Int
        var price: Double
        var token: UUID
        var added: Date
        var tags: [String]
    }

    /// `Part` with a text where the table wants an integer.
    private struct WrongPart: Codable, TableRecord {
        static let databaseTableName = "part"
        var name: String
        var quantity: String
        var price: Double
        var token: UUID
        var added: Date
        var tags: [String]
    }

    private static let strictTable = """
        CREATE TABLE part(id INTEGER PRIMARY KEY, name TEXT NOT NULL, quantity INTEGER NOT NULL, price REAL NOT NULL,
            token BLOB NOT NULL, added TEXT NOT NULL, tags TEXT NOT NULL) STRICT
        """

    /// `body` throws SQLite's own error for a feature the linked SQLite lacks: code 1
    /// (`SQLITE_ERROR`), its message containing `says`; the database still answers after it.
    private func expectMissing(_ says: String, _ manager: DatabaseManager, _ body: () throws -> Void) throws {
        let error = try #require(throws: SQLiteError.self) { try body() }
        #expect(error.code == .error)
        #expect(error.message?.contains(says) == true, "\(error)")
        #expect(try manager.scalar(Int.self, "SELECT 1") == 1)
    }

    @Test func aCodableRecordRoundTripsThroughAStrictTable() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        guard SQLiteLibrary.has(.strictTables) else {
            try expectMissing("STRICT", manager) { try manager.execute(Self.strictTable) }
            #expect(try manager.scalar(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'part'") == 0)
            return
        }
        try manager.execute(Self.strictTable)
        let added = Date(timeIntervalSince1970: 1_700_000_000.25)
        var item = Part(id: nil, name: "bolt", quantity: 12, price: 0.5, token: UUID(), added: added, tags: ["m4", "steel"])
        try manager.writeSync { db throws in
            item.id = try db.insert(item)
            item.quantity = 11
            try db.save(item)
        }
        #expect(try manager.readSync { try $0.fetch(Part.self, id: item.id!) } == item)
        let types = ["id", "name", "quantity", "price", "token", "added", "tags"].map { "typeof(\($0))" }.joined(separator: " || ' ' || ")
        #expect(try manager.scalar(String.self, "SELECT \(types) FROM part") == "integer text integer real blob text text")
        // STRICT refuses a value of another type: typed, and nothing written.
        let wrong = WrongPart(name: "nut", quantity: "many", price: 1, token: UUID(), added: added, tags: [])
        let error = try #require(throws: SQLiteError.self) { try manager.writeSync { try $0.insert(wrong) } }
        #expect(error.code == .constraint)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM part") == 1)
    }

    private struct Doc: Codable, Equatable, TableRecord {
        struct Body: Codable, Equatable {
            var title: String
            var tags: [String]
            var weight: Int
        }
        static let databaseTableName = "doc"
        var id: Int64?
        var body: Body
    }

    @Test func jsonFunctionsAndOperatorsReadACodableRecordsJSONColumn() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE doc(id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        let id = try manager.writeSync { try $0.insert(Doc(id: nil, body: .init(title: "Hello", tags: ["a", "b"], weight: 7))) }
        if SQLiteLibrary.has(.jsonFunctions) {
            #expect(try manager.scalar(String.self, "SELECT json_extract(body, '$.tags[1]') FROM doc WHERE id = ?", id) == "b")
            #expect(try manager.scalar(Int.self, "SELECT json_extract(body, '$.weight') FROM doc") == 7)
        } else {
            try expectMissing("no such function: json_extract", manager) {
                _ = try manager.scalar(String.self, "SELECT json_extract(body, '$.title') FROM doc")
            }
        }
        if SQLiteLibrary.has(.jsonOperators) {
            #expect(try manager.scalar(String.self, "SELECT body ->> '$.title' FROM doc") == "Hello")
            #expect(try manager.scalar(String.self, "SELECT body -> '$.tags' FROM doc") == #"["a","b"]"#)
            #expect(try manager.fetchAll(Int64.self, "SELECT id FROM doc WHERE body ->> 'weight' > ?", 6) == [id])
        } else {
            try expectMissing("syntax error", manager) { _ = try manager.scalar(String.self, "SELECT body ->> '$.title' FROM doc") }
        }
    }

    private struct Page: Codable, Equatable {
        var title: String
        var body: String
    }

    private struct Hit: Decodable, Equatable {
        var rowid: Int64
        var marked: String
    }

    @Test func anFTS5TableTakesRecordsAndAnswersMatchQueries() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        let create = "CREATE VIRTUAL TABLE page USING fts5(title, body)"
        guard SQLiteLibrary.has(.fts5) else {
            return try expectMissing("no such module: fts5", manager) { try manager.execute(create) }
        }
        try manager.execute(create)
        let ids = try manager.writeSync { db throws in
            [
                try db.insert(Page(title: "greeting", body: "hello encrypted world"), into: "page"),
                try db.insert(Page(title: "other", body: "nothing to see"), into: "page"),
                try db.insert(Page(title: "again", body: "hello hello"), into: "page"),
            ]
        }
        // The rowids the table gave (a virtual table's RETURNING rowid would say -1).
        #expect(ids == [1, 2, 3])
        #expect(try manager.fetchAll(Int64.self, "SELECT rowid FROM page ORDER BY rowid") == ids)
        let hits = try manager.fetchAll(
            Hit.self, "SELECT rowid, highlight(page, 1, '[', ']') AS marked FROM page WHERE page MATCH ? ORDER BY rank", "hello")
        #expect(hits == [Hit(rowid: 3, marked: "[hello] [hello]"), Hit(rowid: 1, marked: "[hello] encrypted world")])
    }

    // MARK: - The SQLFeatures article's samples

    private struct Item: Codable, TableRecord {
        static let databaseTableName = "item"
        var id: Int64?
        var name: String
        var tags: [String]
    }

    @Test func theArticlesStrictTableAndJSONSample() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        let sample = {
            try manager.writeSync { db throws -> String? in
                // README begin
                try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL, tags TEXT NOT NULL) STRICT")
                let id = try db.insert(Item(id: nil, name: "bolt", tags: ["m4", "steel"]))
                let second = try db.scalar(String.self, "SELECT tags ->> '$[1]' FROM item WHERE id = ?", id)  // "steel"
                // README end
                return second
            }
        }
        guard SQLiteLibrary.has(.strictTables), SQLiteLibrary.has(.jsonOperators) else {
            return try expectMissing("STRICT", manager) { _ = try sample() }
        }
        #expect(try sample() == "steel")
    }

    @Test func theArticlesFTS5Sample() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        let sample = {
            try manager.writeSync { db throws -> [String] in
                // README begin
                try db.execute("CREATE VIRTUAL TABLE page USING fts5(title, body)")
                try db.insert(Page(title: "greeting", body: "hello encrypted world"), into: "page")
                let hits = try db.fetchAll(String.self, "SELECT title FROM page WHERE page MATCH ? ORDER BY rank", "hello")
                // README end
                return hits
            }
        }
        guard SQLiteLibrary.has(.fts5) else { return try expectMissing("no such module: fts5", manager) { _ = try sample() } }
        #expect(try sample() == ["greeting"])
    }

    @Test func theFeaturesFollowTheLinkedVersion() {
        #expect(SQLiteLibrary.has(.upsert) == SQLiteLibrary.isAtLeast(3, 24))
        #expect(SQLiteLibrary.has(.returning) == SQLiteLibrary.isAtLeast(3, 35))
        #expect(SQLiteLibrary.has(.strictTables) == SQLiteLibrary.isAtLeast(3, 37))
        #expect(!SQLiteLibrary.has(.jsonOperators) || SQLiteLibrary.has(.jsonFunctions))
        #expect(RecordSQL.UpsertStyle.linked == (SQLiteLibrary.has(.upsert) ? .native : .emulated))
    }
}
