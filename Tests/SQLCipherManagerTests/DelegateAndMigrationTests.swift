import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite struct DelegateAndMigrationTests {
    private func notesMigrator(failingAt failing: Int? = nil) -> VersionedSchemaMigrator {
        var migrator = VersionedSchemaMigrator()
        migrator.register(version: 1) { db in
            try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        }
        migrator.register(version: 2) { db in
            try db.execute("ALTER TABLE note ADD COLUMN body TEXT")
            if failing == 2 { throw TestFailure() }
        }
        migrator.register(version: 3) { db in
            try db.execute("CREATE INDEX note_title ON note(title)")
            if failing == 3 { throw TestFailure() }
        }
        return migrator
    }

    @Test func createFiresCreatedThenMigration() throws {
        let dir = TemporaryDirectory()
        let delegate = RecordingDelegate()
        let manager = dir.manager()
        manager.delegate = delegate
        manager.schemaMigrator = notesMigrator()
        try manager.create(password: "secret")
        #expect(delegate.events == [.didCreate, .willMigrate(0, 3), .didMigrate(0, 3)])
        #expect(try manager.schemaVersion == 3)
        try manager.execute("INSERT INTO note(title, body) VALUES (?, ?)", "t", "b")
    }

    @Test func openAtTheTargetVersionFiresOnlyOpened() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        manager.schemaMigrator = notesMigrator()
        try manager.create(password: "secret")
        manager.close()
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        try manager.open(password: "secret")
        #expect(delegate.events == [.didOpen])
    }

    @Test func openOfAnOlderSchemaMigratesStepByStep() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        var v1 = VersionedSchemaMigrator()
        v1.register(version: 1) { db in try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)") }
        manager.schemaMigrator = v1
        try manager.create(password: "secret")
        try manager.execute("INSERT INTO note(title) VALUES ('kept')")
        manager.close()
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.schemaMigrator = notesMigrator()
        try manager.open(password: "secret")
        #expect(delegate.events == [.didOpen, .willMigrate(1, 3), .didMigrate(1, 3)])
        #expect(try manager.scalar(String.self, "SELECT title FROM note") == "kept")
        #expect(try manager.fetchAll("PRAGMA index_list(note)").count == 1)
    }

    @Test func aFailingStepRollsBackToTheLastGoodVersion() throws {
        let dir = TemporaryDirectory()
        let delegate = RecordingDelegate()
        let manager = dir.manager()
        manager.delegate = delegate
        manager.schemaMigrator = notesMigrator(failingAt: 3)
        #expect(thrownCase { try manager.create(password: "secret") } == "migrationFailed")
        // The failed open closes and forgets the key it cached.
        #expect(delegate.events == [.didCreate, .willMigrate(0, 3), .didFail("migrationFailed"), .didClose, .didForgetKey])
        #expect(!manager.isOpen)
        // Version 2 committed; step 3's index was rolled back.
        manager.schemaMigrator = nil
        try manager.open(password: "secret")
        #expect(try manager.schemaVersion == 2)
        #expect(try manager.fetchAll("PRAGMA index_list(note)").isEmpty)
        #expect(try manager.fetchAll("PRAGMA table_info(note)").count == 3)
    }

    @Test func migrationFailureReportsVersions() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        manager.schemaMigrator = notesMigrator(failingAt: 2)
        do {
            try manager.create(password: "secret")
            Issue.record("create should fail")
        } catch DatabaseManagerError.migrationFailed(let version, let lastGood, let underlying) {
            #expect(version == 2)
            #expect(lastGood == 1)
            #expect(underlying is TestFailure)
        }
    }

    @Test func aNewerFileIsRefusedAndLeftUntouched() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.setSchemaVersion(7)
        manager.close()
        let before = Fixture.bytes(dir.file())
        let delegate = RecordingDelegate()
        let migrator = MockSchemaMigrator(targetVersion: 3)
        manager.delegate = delegate
        manager.schemaMigrator = migrator
        #expect(thrownCase { try manager.open(password: "secret") } == "schemaVersionTooNew")
        #expect(delegate.events == [.didOpen, .didFail("schemaVersionTooNew"), .didClose, .didForgetKey])
        #expect(migrator.calls.isEmpty)
        #expect(!manager.isOpen)
        #expect(Fixture.bytes(dir.file()) == before)
    }

    @Test func aMigratorThatDoesNotReachItsTargetFails() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        manager.schemaMigrator = LazyMigrator()
        #expect(thrownCase { try manager.create(password: "secret") } == "migrationFailed")
    }

    @Test func mockMigratorIsCalledWithTheStoredVersion() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        let migrator = MockSchemaMigrator(targetVersion: 4)
        manager.schemaMigrator = migrator
        try manager.create(password: "secret")
        try manager.setSchemaVersion(2)
        manager.close()
        try manager.open(password: "secret")
        #expect(migrator.calls == [0, 2])
        #expect(try manager.schemaVersion == 4)
    }

    @Test func delegateCanCallBackIntoTheManagerToHandOffToTheMigrator() throws {
        // The original's pattern: didOpenDatabase reads the schema version and hands off to a schema manager.
        let dir = TemporaryDirectory()
        let delegate = RecordingDelegate()
        let migrator = notesMigrator()
        delegate.onOpenOrCreate = { manager in
            if (try? manager.schemaVersion) != migrator.targetVersion {
                try? manager.migrate(using: migrator)
            }
        }
        let manager = dir.manager()
        manager.delegate = delegate
        try manager.create(password: "secret")
        #expect(delegate.events == [.didCreate, .willMigrate(0, 3), .didMigrate(0, 3)])
        #expect(try manager.schemaVersion == 3)
    }

    @Test func wrongPasswordFiresNoEvent() throws {
        let dir = TemporaryDirectory()
        _ = try Fixture.makeEncryptedDatabase(in: dir)
        let delegate = RecordingDelegate()
        let manager = dir.manager()
        manager.delegate = delegate
        _ = thrownCase { try manager.open(password: "nope") }
        _ = thrownCase { try manager.open(password: " ") }
        #expect(delegate.events.isEmpty)
    }

    @Test func aDatabaseErrorIsReportedOnceOnFailedOpen() throws {
        let dir = TemporaryDirectory()
        try Fixture.makePlaintextDatabase(at: dir.file())
        let delegate = RecordingDelegate()
        let manager = dir.manager()
        manager.delegate = delegate
        _ = thrownCase { try manager.open(password: "secret") }
        #expect(delegate.events == [.didFail("plaintextDatabase")])
    }

    @Test func theDelegateIsHeldWeakly() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        do {
            let delegate = RecordingDelegate()
            manager.delegate = delegate
            #expect(manager.delegate != nil)
        }
        #expect(manager.delegate == nil)
    }
}

/// Returns without setting user_version.
private struct LazyMigrator: SchemaMigrator {
    var targetVersion: Int { 2 }
    func migrate(_ db: Database, from version: Int) throws {}
}
