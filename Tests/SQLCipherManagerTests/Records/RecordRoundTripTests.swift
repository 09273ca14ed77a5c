import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Records written with `insert` and read back with `fetch`: every supported
/// type, stored as the statement arguments store it.
@Suite struct RecordRoundTripTests {
    @Test func everySupportedTypeRoundTripsThroughInsertAndFetch() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        let values = (1...4).map { EveryType.sample($0) }
        let ids = try manager.writeSync { db in try values.map { try db.insert($0) } }
        #expect(ids == [1, 2, 3, 4])
        try manager.readSync { db throws in
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
        let id = try manager.writeSync { try $0.insert(value) }
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
        let id = try manager.writeSync { try $0.insert(value) }
        let nulls = try manager.scalar(
            String.self, "SELECT typeof(priority) || typeof(note) || typeof(seen) || typeof(token) FROM every WHERE id = ?", id)
        #expect(nulls == "nullnullnullnull")
        #expect(try manager.readSync { try $0.fetch(EveryType.self, id: id) }?.note == nil)
    }

    @Test func aNilIntegerPrimaryKeyIsAssignedAndTheInsertReturnsTheRowid() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.execute("INSERT INTO note(id, title, score) VALUES (41, 'before', 0)")
        let id = try manager.writeSync { try $0.insert(Note(id: nil, title: "Hello", score: 3)) }
        #expect(id == 42)
        #expect(try manager.scalar(Int64.self, "SELECT id FROM note WHERE title = 'Hello'") == 42)
        let explicit = try manager.writeSync { try $0.insert(Note(id: 100, title: "Set", score: 1)) }
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
        _ = try manager.writeSync { try $0.insert(Renamed(identifier: 7, heading: "mapped", points: 2)) }
        #expect(try manager.dump("note") == ["INTEGER 7|TEXT mapped|INTEGER 2"])
        #expect(try manager.readSync { try $0.fetch(Renamed.self, id: 7) } == Renamed(identifier: 7, heading: "mapped", points: 2))
    }

    @Test func aTableNamedPerCallServesATypeThatIsNotATableRecord() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.writeSync { db throws in
            let id = try db.insert(PlainNote(id: nil, title: "plain", score: 1), into: "note")
            try db.update(PlainNote(id: id, title: "changed", score: 2), in: "note")
            try db.save(PlainNote(id: 9, title: "saved", score: 3), in: "note")
            #expect(try db.fetch(PlainNote.self, from: "note", key: ["id": id]) == PlainNote(id: id, title: "changed", score: 2))
            #expect(try db.delete(PlainNote(id: 9, title: "", score: 0), from: "note"))
            #expect(try db.delete(from: "note", key: ["id": id]))
        }
        #expect(try manager.dump("note").isEmpty)
    }

    /// The fixed-width integers, `Float` and their optionals, which the container stores
    /// without a `DatabaseValue`: each as its conformance stores it, `nil` as NULL.
    @Test func narrowIntegersFloatsAndTheirOptionals() throws {
        struct Narrow: Codable, Equatable, TableRecord {
            static let databaseTableName = "narrow"
            var i8: Int8, i16: Int16, i32: Int32, u8: UInt8, u16: UInt16, u32: UInt32, f: Float, b: Bool
            var oi8: Int8?, of: Float?, ou32: UInt32?, ob: Bool?, os: String?
        }
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.execute("CREATE TABLE narrow(i8, i16, i32, u8, u16, u32, f, b, oi8, of, ou32, ob, os)")
        let full = Narrow(
            i8: -128, i16: -32768, i32: .min, u8: 255, u16: 65535, u32: .max, f: 1.5, b: true, oi8: 7, of: -2.25, ou32: 9, ob: false, os: ""
        )
        let empty = Narrow(i8: 0, i16: 0, i32: 0, u8: 0, u16: 0, u32: 0, f: 0, b: false, oi8: nil, of: nil, ou32: nil, ob: nil, os: nil)
        #expect(try manager.writeSync { db in try db.insert(contentsOf: [full, empty]) } == [1, 2])
        let rows = try manager.fetchAll("SELECT * FROM narrow ORDER BY rowid")
        let stored = ["i8", "i16", "i32", "u8", "u16", "u32", "f", "b", "oi8", "of", "ou32", "ob", "os"].map { rows[0][$0] }
        #expect(
            stored == [
                .integer(-128), .integer(-32768), .integer(Int64(Int32.min)), .integer(255), .integer(65535),
                .integer(Int64(UInt32.max)), .real(1.5), .integer(1), .integer(7), .real(-2.25), .integer(9), .integer(0), .text(""),
            ])
        #expect(["oi8", "of", "ou32", "ob", "os"].map { rows[1][$0] } == Array(repeating: DatabaseValue.null, count: 5))
        #expect(try manager.fetchAll(Narrow.self, "SELECT * FROM narrow ORDER BY rowid") == [full, empty])
    }
}
