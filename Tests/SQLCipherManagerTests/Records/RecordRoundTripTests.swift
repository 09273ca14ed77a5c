import Foundation
import Testing

@testable import SQLCipherManager

/// Records written with `insert` and read back with `fetch` (issue 24, item 2): every supported
/// type, stored as the statement arguments store it.
@Suite struct RecordRoundTripTests {
    @Test func everySupportedTypeRoundTripsThroughInsertAndFetch() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        let values = (1...4).map { EveryType.sample($0) }
        let ids = try manager.write { db in try values.map { try db.insert($0) } }
        #expect(ids == [1, 2, 3, 4])
        try manager.read { db throws in
            for (value, id) in zip(values, ids) {
                var expected = value
                expected.id = id
                #expect(try db.fetch(EveryType.self, id: id) == expected)
            }
        }
    }

    @Test func eachValueIsStoredAsItsDatabaseValueConvertibleConformanceStoresIt() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        let value = EveryType.sample(1)
        let id = try manager.write { try $0.insert(value) }
        let row = try #require(try manager.fetchOne("SELECT * FROM every WHERE id = ?", id))
        // The same values an argument of each type binds: one conversion for both.
        let columns: [(String, any DatabaseValueConvertible)] = [
            ("int", value.int), ("int64", value.int64), ("double", value.double), ("bool", value.bool),
            ("string", value.string), ("data", value.data), ("date", value.date), ("uuid", value.uuid),
            ("url", value.url), ("decimal", value.decimal), ("status", value.status.rawValue),
            ("priority", value.priority?.rawValue), ("note", value.note), ("seen", value.seen), ("token", value.token),
        ]
        for (name, expected) in columns {
            #expect(row[name] == expected.databaseValue, "column \(name)")
        }
        #expect(row["date"] == .text("2023-11-14 22:13:21.123"))
        #expect(row["seen"] == .text("1970-01-02 00:00:00.500"))
        if case .blob(let bytes) = row["uuid"] { #expect(bytes.count == 16) } else { Issue.record("uuid is not a blob") }
        #expect(row["decimal"] == .text("12345678901234567890.1"))
        #expect(row["priority"] == .integer(9))
        // A nested Encodable is its JSON text, which the row decoder reads back.
        let extra = try #require(row["extra"].flatMap { String(databaseValue: $0) })
        #expect(try JSONDecoder().decode(EveryType.Extra.self, from: Data(extra.utf8)) == value.extra)
    }

    @Test func nilOptionalsAreStoredAsNullAndReadBackAsNil() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        let value = EveryType.sample(6)  // even and a multiple of 3: every optional nil
        #expect(value.priority == nil && value.note == nil && value.seen == nil && value.token == nil)
        let id = try manager.write { try $0.insert(value) }
        let nulls = try manager.scalar(
            String.self, "SELECT typeof(priority) || typeof(note) || typeof(seen) || typeof(token) FROM every WHERE id = ?", id)
        #expect(nulls == "nullnullnullnull")
        #expect(try manager.read { try $0.fetch(EveryType.self, id: id) }?.note == nil)
    }

    @Test func aNilIntegerPrimaryKeyIsAssignedAndTheInsertReturnsTheRowid() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.execute("INSERT INTO note(id, title, score) VALUES (41, 'before', 0)")
        let id = try manager.write { try $0.insert(Note(id: nil, title: "Hello", score: 3)) }
        #expect(id == 42)
        #expect(try manager.scalar(Int64.self, "SELECT id FROM note WHERE title = 'Hello'") == 42)
        let explicit = try manager.write { try $0.insert(Note(id: 100, title: "Set", score: 1)) }
        #expect(explicit == 100)
    }

    @Test func codingKeysNameTheColumns() throws {
        struct Renamed: Codable, Equatable, TableRecord {
            static let databaseTableName = "note"
            var identifier: Int64
            var heading: String
            var points: Int
            enum CodingKeys: String, CodingKey {
                case identifier = "id"
                case heading = "title"
                case points = "score"
            }
        }
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        _ = try manager.write { try $0.insert(Renamed(identifier: 7, heading: "mapped", points: 2)) }
        #expect(try manager.dump("note") == ["INTEGER 7|TEXT mapped|INTEGER 2"])
        #expect(try manager.read { try $0.fetch(Renamed.self, id: 7) } == Renamed(identifier: 7, heading: "mapped", points: 2))
    }

    @Test func aTableNamedPerCallServesATypeThatIsNotATableRecord() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.write { db throws in
            let id = try db.insert(PlainNote(id: nil, title: "plain", score: 1), into: "note")
            try db.update(PlainNote(id: id, title: "changed", score: 2), in: "note")
            try db.save(PlainNote(id: 9, title: "saved", score: 3), in: "note")
            #expect(try db.fetch(PlainNote.self, from: "note", key: ["id": id]) == PlainNote(id: id, title: "changed", score: 2))
            #expect(try db.delete(PlainNote(id: 9, title: "", score: 0), from: "note"))
            #expect(try db.delete(from: "note", key: ["id": id]))
        }
        #expect(try manager.dump("note").isEmpty)
    }
}
