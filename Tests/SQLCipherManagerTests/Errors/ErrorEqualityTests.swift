import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Every public error type: `Equatable` by case and associated values, `LocalizedError` whose
/// `errorDescription` is its `description`.
@Suite struct ErrorEqualityTests {
    private struct Opaque: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    private static let sqlite = SQLiteError(extendedCode: .constraint, message: "UNIQUE constraint failed: t.a", sql: "INSERT")
    private static let otherSQLite = SQLiteError(extendedCode: .constraint, message: "NOT NULL constraint failed: t.b")

    /// Pairs of (value, an equal value, a different value) for every public error type.
    private static let triples: [(any Error, any Error, any Error)] = [
        (DatabaseManagerError.notOpen, DatabaseManagerError.notOpen, DatabaseManagerError.alreadyOpen),
        (
            DatabaseManagerError.fileNotFound(path: "/a.db"), DatabaseManagerError.fileNotFound(path: "/a.db"),
            DatabaseManagerError.fileNotFound(path: "/b.db")
        ),
        (
            DatabaseManagerError.incorrectPasswordOrSettings(path: "/a.db"),
            DatabaseManagerError.incorrectPasswordOrSettings(path: "/a.db", keySlotFile: nil),
            DatabaseManagerError.incorrectPasswordOrSettings(path: "/a.db", keySlotFile: "/a.db.scm-keys")
        ),
        (
            DatabaseManagerError.corrupt(path: "/a.db", underlying: sqlite),
            DatabaseManagerError.corrupt(path: "/a.db", underlying: sqlite),
            DatabaseManagerError.corrupt(path: "/a.db", underlying: nil)
        ),
        (
            DatabaseManagerError.migrationFailed(version: 2, lastGoodVersion: 1, underlying: sqlite),
            DatabaseManagerError.migrationFailed(version: 2, lastGoodVersion: 1, underlying: sqlite),
            DatabaseManagerError.migrationFailed(version: 2, lastGoodVersion: 1, underlying: otherSQLite)
        ),
        (
            DatabaseManagerError.migrationFailed(version: 2, lastGoodVersion: 1, underlying: Opaque(text: "x")),
            DatabaseManagerError.migrationFailed(version: 2, lastGoodVersion: 1, underlying: Opaque(text: "x")),
            DatabaseManagerError.migrationFailed(version: 2, lastGoodVersion: 1, underlying: Opaque(text: "y"))
        ),
        (
            DatabaseManagerError.reentrantCall("rekey", inside: "read"), DatabaseManagerError.reentrantCall("rekey", inside: "read"),
            DatabaseManagerError.reentrantCall("rekey", inside: "write")
        ),
        (
            DatabaseManagerError.keyUnavailable(identifier: "k", underlying: .notStored(identifier: "k", store: "s")),
            DatabaseManagerError.keyUnavailable(identifier: "k", underlying: .notStored(identifier: "k", store: "s")),
            DatabaseManagerError.keyUnavailable(identifier: "k", underlying: .locked(store: "s", reason: "r"))
        ),
        (sqlite, sqlite, otherSQLite),
        (
            KeyStoreError.locked(store: "keyring", reason: "r"), KeyStoreError.locked(store: "keyring", reason: "r"),
            KeyStoreError.serviceUnavailable(store: "keyring", reason: "r")
        ),
        (KeySlotError.lastSlot(id: 1), KeySlotError.lastSlot(id: 1), KeySlotError.slotNotFound(id: 1)),
        (
            DatabaseManagerError.keySlots(.lastSlot(id: 1)), DatabaseManagerError.keySlots(.lastSlot(id: 1)),
            DatabaseManagerError.keySlots(.lastSlot(id: 2))
        ),
        (RecordError.notFound(table: "t"), RecordError.notFound(table: "t"), RecordError.tableMissing(table: "t")),
        (
            MigrationError.stepFailed(version: 2, lastGoodVersion: 1, underlying: sqlite),
            MigrationError.stepFailed(version: 2, lastGoodVersion: 1, underlying: sqlite),
            MigrationError.stepFailed(version: 2, lastGoodVersion: 1, underlying: Opaque(text: "\(sqlite)"))
        ),
        (
            MigrationError.incomplete(reached: 1, target: 2), MigrationError.incomplete(reached: 1, target: 2),
            MigrationError.incomplete(reached: 0, target: 2)
        ),
        (
            MigrationError.insideTransaction(operation: "a"), MigrationError.insideTransaction(operation: "a"),
            MigrationError.insideTransaction(operation: "b")
        ),
        (
            MigrationError.foreignKeyViolations([.init(table: "c", parent: "p", rowCount: 1)]),
            MigrationError.foreignKeyViolations([.init(table: "c", parent: "p", rowCount: 1)]),
            MigrationError.foreignKeyViolations([.init(table: "c", parent: "p", rowCount: 2)])
        ),
        (
            MigrationError.rebuildRefused(table: "t", reason: "r"), MigrationError.rebuildRefused(table: "t", reason: "r"),
            MigrationError.rebuildRefused(table: "u", reason: "r")
        ),
    ]

    @Test("equal values compare equal, different ones (other case, other value) do not")
    func equatable() {
        for (value, same, other) in Self.triples {
            #expect(equalErrors(value, same), "\(value)")
            #expect(!equalErrors(value, other), "\(value) vs \(other)")
            #expect(!equalErrors(other, value), "\(other) vs \(value)")
        }
    }

    @Test("the typed == of each error type agrees with the cases above")
    func typedEquality() {
        #expect(DatabaseManagerError.notOpen == .notOpen)
        #expect(DatabaseManagerError.notOpen != .notConfigured)
        #expect(DatabaseManagerError.sqlite(Self.sqlite) == .sqlite(Self.sqlite))
        #expect(DatabaseManagerError.sqlite(Self.sqlite) != .corrupt(path: "/a.db", underlying: Self.sqlite))
        #expect(
            DatabaseManagerError.migrationFailed(version: 1, lastGoodVersion: 0, underlying: Self.sqlite)
                != .migrationFailed(version: 1, lastGoodVersion: 0, underlying: DatabaseManagerError.sqlite(Self.sqlite)),
            "same text, other type")
        #expect(KeySlotError.slotFileTampered(path: "/a") == .slotFileTampered(path: "/a"))
        #expect(DatabaseManagerError.keySlots(.slotFileTampered(path: "/a")) == .keySlots(.slotFileTampered(path: "/a")))
        #expect(DatabaseManagerError.keySlots(.slotNotFound(id: 3)) != .keySlots(.lastSlot(id: 3)))
        #expect(DatabaseManagerError.keySlots(.notKeySlotDatabase(path: "/a.db")) != .notPlaintextDatabase(path: "/a.db"))
        #expect(RecordError.noColumns(table: "t") != .noPrimaryKey(table: "t"))
        #expect(
            MigrationError.stepFailed(version: 1, lastGoodVersion: 0, underlying: Self.sqlite)
                != MigrationError.stepFailed(version: 2, lastGoodVersion: 0, underlying: Self.sqlite))
        #expect(MigrationError.incomplete(reached: 1, target: 2) != .rebuildRefused(table: "t", reason: "r"))
    }

    @Test("a key-slot error kept in DatabaseManagerError.keySlots reads as the KeySlotError itself")
    func keySlotsReadsAsItsKeySlotError() {
        let errors: [KeySlotError] = [
            .slotNotFound(id: 3), .lastSlot(id: 1), .notKeySlotDatabase(path: "/a.db"),
            .slotFileOutdated(path: "/a.db.scm-keys", database: "/a.db"), .backupNeedsItsOwnKey(path: "/a.db"),
        ]
        for error in errors {
            let wrapped = DatabaseManagerError.keySlots(error)
            #expect(wrapped.description == error.description)
            #expect(wrapped.errorDescription == error.errorDescription)
            #expect(wrapped.localizedDescription == error.localizedDescription)
        }
    }

    @Test("errorDescription is the description for every public error type")
    func errorDescriptionIsTheDescription() {
        for (value, _, other) in Self.triples {
            for error in [value, other] {
                let localized = error as? any LocalizedError
                #expect(localized != nil, "\(type(of: error)) is not a LocalizedError")
                #expect(localized?.errorDescription == "\(error)", "\(type(of: error))")
                #expect(error.localizedDescription == "\(error)", "\(type(of: error))")
            }
        }
    }
}

/// The errors each layer throws for a real failure never carry the password, key or value that
/// was passed in: not in `description`, not in `errorDescription`.
@Suite struct ErrorSecrecyTests {
    private static let secret = "Hunter2-SECRET-value"

    private func texts(_ error: (any Error)?) -> String {
        guard let error else { return "" }
        return "\(error) \(String(reflecting: error)) \(error.localizedDescription)"
            + ((error as? any LocalizedError)?.errorDescription ?? "")
    }

    @Test("manager, SQLite, record and migration errors never show a bound value or a password")
    func databaseErrorsHoldNoSecret() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
        try manager.execute("INSERT INTO item(name) VALUES (?)", Self.secret)
        let sqlite = thrownError { try manager.execute("INSERT INTO item(name) VALUES (?)", Self.secret) }
        #expect(sqlite is SQLiteError, "\(String(describing: sqlite))")

        struct Item: Codable, TableRecord {
            static let databaseTableName = "item"
            var id: Int64?
            var name: String
        }
        let record = thrownError { try manager.writeSync { try $0.update(Item(id: 99, name: Self.secret)) } }
        #expect(record as? RecordError == .notFound(table: "item"))
        manager.close()

        let wrong = thrownError { try dir.manager().open(password: Self.secret) }
        #expect(wrong as? DatabaseManagerError == .incorrectPasswordOrSettings(path: dir.file().path))

        var migrator = VersionedSchemaMigrator()
        migrator.register(version: 1) { db in try db.execute("INSERT INTO missing(name) VALUES (?)", Self.secret) }
        let migrating = dir.manager("migrating.db")
        migrating.schemaMigrator = migrator
        let migration = thrownError { try migrating.create(password: "secret") }
        guard case .migrationFailed(version: 1, lastGoodVersion: 0, let underlying)? = migration as? DatabaseManagerError else {
            Issue.record("expected migrationFailed, got \(String(describing: migration))")
            return
        }
        #expect(underlying is SQLiteError, "the manager reports the step's own error")
        for error in [sqlite, record, wrong, migration, underlying] {
            #expect(!texts(error).contains(Self.secret), "\(String(describing: error))")
        }
    }

    @Test("key-slot errors never show the password or the recovery key typed")
    func keySlotErrorsHoldNoSecret() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager(password: Self.secret)
        let recovery = try manager.keySlots.addRecoveryKey()
        manager.close()
        var mistyped = Array(recovery.text)
        mistyped[3] = mistyped[3] == "A" ? "B" : "A"
        let typed = String(mistyped)
        let reopened = dir.keySlotManager()
        let invalid = thrownError { try reopened.open(recoveryKey: typed) }
        guard case .keySlots(.invalidRecoveryKey)? = invalid as? DatabaseManagerError else {
            Issue.record("expected invalidRecoveryKey, got \(String(describing: invalid))")
            return
        }
        #expect(!texts(invalid).contains(typed))
        #expect(!texts(invalid).contains(String(typed.prefix(11))))
        let wrong = thrownError { try reopened.open(password: Self.secret + "!") }
        #expect(wrong as? DatabaseManagerError == .incorrectPasswordOrSettings(path: dir.file().path, keySlotFile: dir.slotFile().path))
        #expect(!texts(wrong).contains(Self.secret))
    }
}
