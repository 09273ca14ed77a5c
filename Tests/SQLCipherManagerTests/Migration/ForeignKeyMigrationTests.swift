import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Migration steps run with foreign keys off and `PRAGMA foreign_key_check` before commit:
/// a table rebuild never cascades into its children.
@Suite struct ForeignKeyMigrationTests {
    /// v1: `note` and `tag(note_id REFERENCES note(id) ON DELETE CASCADE)`.
    private static func v1(_ migrator: inout VersionedSchemaMigrator) {
        migrator.register(version: 1) { db in
            try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, obsolete TEXT)")
            try db.execute("CREATE TABLE tag(id INTEGER PRIMARY KEY, note_id INTEGER REFERENCES note(id) ON DELETE CASCADE, name TEXT)")
        }
    }

    /// The usual rebuild of `note` without its `obsolete` column.
    private static let rebuildNote: VersionedSchemaMigrator.Step = { db in
        try db.execute("CREATE TABLE new_note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        try db.execute("INSERT INTO new_note(id, title) SELECT id, title FROM note")
        try db.execute("DROP TABLE note")
        try db.execute("ALTER TABLE new_note RENAME TO note")
    }

    /// A created v1 database with one note and two tags, closed.
    private func makeV1(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        let manager = dir.manager()
        var migrator = VersionedSchemaMigrator()
        Self.v1(&migrator)
        manager.schemaMigrator = migrator
        try manager.create(password: "secret")
        try manager.execute("INSERT INTO note(id, title) VALUES (1, 'n')")
        try manager.execute("INSERT INTO tag(note_id, name) VALUES (1, 'a'), (1, 'b')")
        manager.close()
        return manager
    }

    @Test func aTableRebuildKeepsTheChildRows() throws {
        let dir = TemporaryDirectory()
        let manager = try makeV1(dir)
        var migrator = VersionedSchemaMigrator()
        Self.v1(&migrator)
        migrator.register(version: 2, Self.rebuildNote)
        manager.schemaMigrator = migrator
        try manager.open(password: "secret")
        #expect(try manager.schemaVersion == 2)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 2)
        #expect(try manager.scalar(Int.self, "PRAGMA foreign_keys") == 1)
        // The cascade still works after the step: foreign keys were turned back on.
        try manager.execute("DELETE FROM note WHERE id = 1")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 0)
    }

    @Test func aStepThatOrphansRowsFailsAndCommitsNothing() throws {
        let dir = TemporaryDirectory()
        let manager = try makeV1(dir)
        var migrator = VersionedSchemaMigrator()
        Self.v1(&migrator)
        migrator.register(version: 2) { db in
            try Self.rebuildNote(db)
            try db.execute("DELETE FROM note")
        }
        manager.schemaMigrator = migrator
        do {
            try manager.open(password: "secret")
            Issue.record("the open should fail")
        } catch DatabaseManagerError.migrationFailed(let version, let lastGood, let underlying) {
            #expect(version == 2 && lastGood == 1)
            let violation = try #require(underlying as? MigrationError)
            #expect(violation == .foreignKeyViolations([.init(table: "tag", parent: "note", rowCount: 2)]))
            #expect("\(violation)".contains("2 rows of tag"))
        }
        manager.schemaMigrator = nil
        try manager.open(password: "secret")
        #expect(try manager.schemaVersion == 1)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM note") == 1)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 2)
        #expect(try manager.fetchAll("PRAGMA table_info(note)").count == 3)
        #expect(try manager.scalar(Int.self, "PRAGMA foreign_keys") == 1)
    }

    @Test func aStepWithImmediateChecksCascadesAsSQLiteDoes() throws {
        let dir = TemporaryDirectory()
        let manager = try makeV1(dir)
        var migrator = VersionedSchemaMigrator()
        Self.v1(&migrator)
        migrator.register(version: 2, foreignKeyChecks: .immediate) { db in
            #expect(try db.scalar(Int.self, "PRAGMA foreign_keys") == 1)
            try db.execute("DELETE FROM note")
        }
        manager.schemaMigrator = migrator
        try manager.open(password: "secret")
        #expect(try manager.schemaVersion == 2)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 0)
    }

    @Test func foreignKeysOffInTheConfigurationStayOffAndAreNotChecked() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager { $0.foreignKeys = false }
        var migrator = VersionedSchemaMigrator()
        Self.v1(&migrator)
        migrator.register(version: 2) { db in
            try db.execute("INSERT INTO tag(note_id, name) VALUES (42, 'orphan')")
        }
        manager.schemaMigrator = migrator
        try manager.create(password: "secret")
        #expect(try manager.schemaVersion == 2)
        #expect(try manager.scalar(Int.self, "PRAGMA foreign_keys") == 0)
    }

    @Test func aStepCalledInsideATransactionWithForeignKeysOnIsRefused() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        var migrator = VersionedSchemaMigrator()
        migrator.register(version: 1) { db in try db.execute("CREATE TABLE u(y)") }
        let outcome = Result {
            try manager.withDatabase { db in try db.transaction { db in try migrator.migrate(db, from: 0) } }
        }
        let step = try #require(outcome.failure as? MigrationError)
        let refusal = MigrationError.insideTransaction(operation: "migration step 1")
        #expect(step == .stepFailed(version: 1, lastGoodVersion: 0, underlying: refusal))
        #expect(try manager.schemaVersion == 0)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'u'") == 0)
    }
}

extension Result {
    /// The error, or `nil` on success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
