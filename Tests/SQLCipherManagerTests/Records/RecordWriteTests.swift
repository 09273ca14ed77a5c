import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `update`, `save`, `delete` and `fetch` by primary key, single and composite.
@Suite struct RecordWriteTests {
    @Test func updateWritesEveryColumnOfTheRowWithTheKeyAndNoOther() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.writeSync { db throws in
            try db.insert(Note(id: 1, title: "one", score: 1))
            try db.insert(Note(id: 2, title: "two", score: 2))
            try db.update(Note(id: 1, title: "uno", score: 10))
        }
        #expect(try manager.dump("note") == ["INTEGER 1|TEXT uno|INTEGER 10", "INTEGER 2|TEXT two|INTEGER 2"])
    }

    @Test func fetchByKeyFindsTheRowOrNil() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        _ = try manager.writeSync { try $0.insert(Note(id: 5, title: "five", score: 5)) }
        try manager.readSync { db throws in
            #expect(try db.fetch(Note.self, id: 5) == Note(id: 5, title: "five", score: 5))
            #expect(try db.fetch(Note.self, id: 6) == nil)
            #expect(try db.fetch(Note.self, key: ["ID": 5])?.title == "five")  // SQLite's names ignore case
        }
    }

    @Test func deleteRemovesTheRowAndSaysWhetherThereWasOne() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.writeSync { db throws in
            try db.insert(contentsOf: (1...3).map { Note(id: Int64($0), title: "n\($0)", score: $0) })
            #expect(try db.delete(Note(id: 2, title: "ignored", score: 0)))
            #expect(try !db.delete(Note(id: 2, title: "n2", score: 2)))
            #expect(try db.delete(Note.self, id: 3))
            #expect(try !db.delete(Note.self, id: 3))
        }
        #expect(try manager.dump("note") == ["INTEGER 1|TEXT n1|INTEGER 1"])
    }

    @Test func aCompositePrimaryKeyNamesOneRowInEveryCall() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.writeSync { db throws in
            try db.insert(Membership(team: "red", person: 1, role: "lead"))
            try db.insert(Membership(team: "red", person: 2, role: "dev"))
            try db.insert(Membership(team: "blue", person: 1, role: "dev"))
            try db.update(Membership(team: "red", person: 2, role: "qa"))
            for style in [RecordSQL.UpsertStyle.emulated, .linked] {
                try db.save(
                    Membership(team: "blue", person: 1, role: "lead-\(style)"), in: "membership", primaryKey: Membership.primaryKey,
                    style: style)
            }
            try db.save(Membership(team: "blue", person: 2, role: "new"))
            #expect(try db.fetch(Membership.self, key: ["person": 2, "team": "red"])?.role == "qa")
            #expect(try db.delete(Membership.self, key: ["team": "red", "person": 1]))
        }
        #expect(
            try manager.dump("membership") == [
                "TEXT red|INTEGER 2|TEXT qa", "TEXT blue|INTEGER 1|TEXT lead-\(RecordSQL.UpsertStyle.linked)",
                "TEXT blue|INTEGER 2|TEXT new",
            ])
    }

    // MARK: - Save

    @Test(arguments: [RecordSQL.UpsertStyle.emulated, .linked])
    func saveInsertsANewKeyAndUpdatesAnExistingOne(style: RecordSQL.UpsertStyle) throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.writeSync { db throws in
            try db.insert(Note(id: 1, title: "old", score: 1))
            try db.save(Note(id: 1, title: "new", score: 2), in: "note", primaryKey: ["id"], style: style)
            try db.save(Note(id: 2, title: "added", score: 3), in: "note", primaryKey: ["id"], style: style)
            try db.save(Note(id: nil, title: "assigned", score: 4), in: "note", primaryKey: ["id"], style: style)
        }
        #expect(
            try manager.dump("note") == [
                "INTEGER 1|TEXT new|INTEGER 2", "INTEGER 2|TEXT added|INTEGER 3", "INTEGER 3|TEXT assigned|INTEGER 4",
            ])
    }

    @Test func theEmulatedSaveRunsInItsOwnTransactionOrASavepointOfTheCallers() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.withDatabase { db throws in
            try db.save(Note(id: 1, title: "alone", score: 1), in: "note", primaryKey: ["id"], style: .emulated)
            #expect(!db.isInTransaction)  // its own BEGIN IMMEDIATE, committed
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try db.transaction { db in
                    try db.save(Note(id: 1, title: "rolled back", score: 9), in: "note", primaryKey: ["id"], style: .emulated)
                    try db.save(Note(id: 2, title: "rolled back", score: 9), in: "note", primaryKey: ["id"], style: .emulated)
                    throw Abort()
                }
            }
        }
        #expect(try manager.dump("note") == ["INTEGER 1|TEXT alone|INTEGER 1"])
    }

    @Test func theLinkedVersionDecidesTheUpsertAndIsTheVersionSQLiteReports() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        let reported = try #require(try manager.scalar(String.self, "SELECT sqlite_version()"))
        let parts = reported.split(separator: ".").compactMap { Int($0) }
        #expect(SQLiteLibrary.versionNumber == parts[0] * 1_000_000 + parts[1] * 1000 + parts[2])
        #expect(RecordSQL.UpsertStyle.linked == (parts[0] * 1000 + parts[1] >= 3024 ? .native : .emulated))
    }

    // MARK: - The SQL

    @Test func theNativeUpsertIsOneInsertOnConflictUpdatingTheOtherColumns() throws {
        let sql = RecordSQL(table: "membership", columns: ["team", "person", "role"], primaryKey: ["team", "person"])
        #expect(
            try sql.upsert(style: .native)
                == RecordSQL.Plan(
                    sql:
                        #"INSERT INTO "membership"("team", "person", "role") VALUES (?, ?, ?) ON CONFLICT("team", "person") DO UPDATE SET "role" = excluded."role""#,
                    order: [0, 1, 2]))
        let keysOnly = RecordSQL(table: "tag", columns: ["name"], primaryKey: ["name"])
        #expect(try keysOnly.upsert(style: .native).sql == #"INSERT INTO "tag"("name") VALUES (?) ON CONFLICT("name") DO NOTHING"#)
    }

    @Test func theEmulatedUpsertUpdatesByKeyFirstThenInserts() throws {
        let sql = RecordSQL(table: "membership", columns: ["role", "person", "team"], primaryKey: ["team", "person"])
        #expect(
            try sql.upsert(style: .emulated)
                == RecordSQL.Plan(sql: #"UPDATE "membership" SET "role" = ? WHERE "team" = ? AND "person" = ?"#, order: [0, 2, 1]))
        #expect(sql.insert == #"INSERT INTO "membership"("role", "person", "team") VALUES (?, ?, ?)"#)
        let quoted = RecordSQL(table: #"odd "name""#, columns: [#"a"b"#], primaryKey: [#"a"b"#])
        #expect(quoted.insert == #"INSERT INTO "odd ""name"""("a""b") VALUES (?)"#)
    }

    @Test func theNativeUpsertRunsWhereTheLinkedSQLiteHasItAndFailsToCompileWhereItDoesNot() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.execute("INSERT INTO note(id, title, score) VALUES (1, 'old', 1)")
        let native = { (db: Database) in
            try db.save(Note(id: 1, title: "native", score: 2), in: "note", primaryKey: ["id"], style: .native)
        }
        if SQLiteLibrary.isAtLeast(3, 24) {
            try manager.writeSync(native)
            #expect(try manager.dump("note") == ["INTEGER 1|TEXT native|INTEGER 2"])
        } else {
            // 3.15.2 here: the text is right (tested above) and SQLite refuses it, so the run-time check matters.
            let error = try #require(throws: SQLiteError.self) { try manager.writeSync(native) }
            #expect(error.code == .error)
            #expect(try manager.dump("note") == ["INTEGER 1|TEXT old|INTEGER 1"])
        }
    }
}
