import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Bad input to the record calls: a typed error that says what to do, and nothing written.
@Suite struct RecordErrorTests {
    /// A note that encodes `score` only when it is positive: its columns depend on its value.
    struct Sparse: Encodable, TableRecord {
        static let databaseTableName = "note"
        var id: Int64
        var title: String
        var score: Int
        enum CodingKeys: String, CodingKey { case id, title, score }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            if score > 0 { try container.encode(score, forKey: .score) }
        }
    }

    /// A dump of every table, before and after a refused call.
    private func snapshot(_ manager: DatabaseManager) throws -> [[String]] {
        try ["note", "membership", "every", "counter"].map { try manager.dump($0) }
    }

    /// Runs `body` on a database holding two notes and one membership, expects `expected`, and
    /// checks that nothing changed.
    private func expectRefusal(_ expected: RecordError, _ body: (Database) throws -> Void) throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.executeScript(
            """
            INSERT INTO note VALUES (1, 'one', 1), (2, 'two', 2);
            INSERT INTO membership VALUES ('red', 1, 'lead');
            """)
        let before = try snapshot(manager)
        let error = try #require(throws: RecordError.self) { try manager.writeSync(body) }
        #expect(error == expected)
        // Every message says what to do; a refused write says that nothing was written.
        #expect(error.description.contains(error.description.hasPrefix("the key") ? "give a value" : "nothing was written"))
        #expect(try snapshot(manager) == before)
    }

    @Test func aMissingTableIsNamed() throws {
        struct Ghost: Codable, TableRecord {
            static let databaseTableName = "ghost"
            var id: Int64
        }
        for call in [
            { (db: Database) in _ = try db.insert(Ghost(id: 1)) }, { try $0.update(Ghost(id: 1)) }, { try $0.save(Ghost(id: 1)) },
            { _ = try $0.delete(Ghost(id: 1)) }, { _ = try $0.fetch(Ghost.self, id: 1) }, { _ = try $0.insert(contentsOf: [Ghost(id: 1)]) },
        ] {
            try expectRefusal(.tableMissing(table: "ghost"), call)
        }
    }

    @Test func columnsTheTableLacksAreNamed() throws {
        struct Wider: Codable, TableRecord {
            static let databaseTableName = "note"
            var id: Int64
            var title: String
            var score: Int
            var colour: String
            var size: Int
        }
        let wider = Wider(id: 3, title: "t", score: 1, colour: "red", size: 2)
        try expectRefusal(.unknownColumns(table: "note", columns: ["colour", "size"])) { _ = try $0.insert(wider) }
        try expectRefusal(.unknownColumns(table: "note", columns: ["colour", "size"])) { try $0.save(wider) }
    }

    @Test func anUpdateOfAKeyNoRowHasIsNotFound() throws {
        try expectRefusal(.notFound(table: "note")) { try $0.update(Note(id: 99, title: "x", score: 0)) }
    }

    @Test func aNilKeyCannotNameARowToUpdateOrDelete() throws {
        try expectRefusal(.primaryKeyIsNull(table: "note", column: "id")) { try $0.update(Note(id: nil, title: "x", score: 0)) }
        try expectRefusal(.primaryKeyIsNull(table: "note", column: "id")) { _ = try $0.delete(Note(id: nil, title: "x", score: 0)) }
    }

    @Test func aPrimaryKeyTheRecordDoesNotEncodeOrNoKeyAtAllIsRefused() throws {
        let note = PlainNote(id: 1, title: "x", score: 0)
        try expectRefusal(.primaryKeyNotEncoded(table: "note", column: "uuid")) { try $0.update(note, in: "note", primaryKey: ["uuid"]) }
        try expectRefusal(.primaryKeyNotEncoded(table: "note", column: "uuid")) { try $0.save(note, in: "note", primaryKey: ["uuid"]) }
        try expectRefusal(.noPrimaryKey(table: "note")) { try $0.update(note, in: "note", primaryKey: []) }
    }

    @Test func aKeyThatDoesNotNameThePrimaryKeyColumnsIsRefused() throws {
        try expectRefusal(.wrongKey(table: "membership", expected: ["team", "person"], given: ["team"])) {
            _ = try $0.fetch(Membership.self, key: ["team": "red"])
        }
        try expectRefusal(.wrongKey(table: "membership", expected: ["team", "person"], given: ["person", "role", "team"])) {
            _ = try $0.delete(Membership.self, key: ["team": "red", "person": 1, "role": "lead"])
        }
        try expectRefusal(.wrongKey(table: "membership", expected: ["team", "person"], given: ["id"])) {
            _ = try $0.fetch(Membership.self, id: 1)
        }
    }

    @Test func aBatchWhoseRecordsEncodeOtherColumnsIsRefusedWhole() throws {
        let batch = [Sparse(id: 3, title: "a", score: 1), Sparse(id: 4, title: "b", score: 2), Sparse(id: 5, title: "c", score: 0)]
        try expectRefusal(.columnsDiffer(table: "note", expected: ["id", "title", "score"], found: ["id", "title"], index: 2)) {
            _ = try $0.insert(contentsOf: batch)
        }
    }

    @Test func aRecordWhoseColumnsVaryStillInsertsAloneWithItsOwnColumns() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.execute("CREATE TABLE loose(id INTEGER PRIMARY KEY, title TEXT, score INTEGER DEFAULT 7)")
        try manager.writeSync { db throws in
            try db.insert(Sparse(id: 1, title: "a", score: 1), into: "loose")
            try db.insert(Sparse(id: 2, title: "b", score: 0), into: "loose")  // no score column: its default
        }
        #expect(try manager.dump("loose") == ["INTEGER 1|TEXT a|INTEGER 1", "INTEGER 2|TEXT b|INTEGER 7"])
    }

    @Test func aConstraintFailingInTheMiddleOfABatchLeavesNoRowOfIt() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.execute("INSERT INTO note VALUES (2, 'taken', 0)")
        let before = try manager.dump("note")
        let batch = (1...3).map { Note(id: Int64($0), title: "n\($0)", score: $0) }
        let error = try #require(throws: SQLiteError.self) { try manager.writeSync { try $0.insert(contentsOf: batch) } }
        #expect(error.code == .constraint)
        #expect(try manager.dump("note") == before)
    }

    @Test func valuesOneColumnCannotHoldAreRefused() throws {
        struct Huge: Encodable {
            var id: Int64
            var count: UInt64
        }
        try expectRefusal(
            .unencodable(
                table: "note", column: "count", reason: "UInt64 above 9223372036854775807 does not fit SQLite's 64-bit signed INTEGER")
        ) { _ = try $0.insert(Huge(id: 9, count: .max), into: "note") }
        struct Nested: Encodable {
            var id: Int64
            enum CodingKeys: String, CodingKey { case id, inner }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                var inner = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .inner)
                try? inner.encode(1, forKey: .id)
            }
        }
        let error = try #require(throws: RecordError.self) {
            try TemporaryDirectory().recordManager().writeSync { _ = try $0.insert(Nested(id: 1), into: "note") }
        }
        guard case .unencodable(_, let column, _) = error else { throw error }
        #expect(column == "inner")
        try expectRefusal(
            .unencodable(
                table: "note", column: "(the record itself)",
                reason: "a record encodes a keyed container, one key per column; this type encodes a single value or an array")
        ) { _ = try $0.insert("just a string", into: "note") }
    }

    @Test func theErrorsAreEquatableAndSayWhatToDo() {
        #expect(RecordError.notFound(table: "note") == .notFound(table: "note"))
        #expect(RecordError.notFound(table: "note") != .tableMissing(table: "note"))
        #expect(RecordError.tableMissing(table: "note").description.contains("create it"))
        #expect(RecordError.primaryKeyIsNull(table: "note", column: "id").description.contains("insert or save it first"))
        #expect(
            RecordError.columnsDiffer(table: "note", expected: ["a"], found: ["b"], index: 3).description.contains(
                "insert the others one by one"))
    }
}
