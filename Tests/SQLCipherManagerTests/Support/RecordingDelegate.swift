import Foundation
import SQLCipherManager

/// One recorded delegate event.
enum RecordedEvent: Equatable, Sendable {
    case created, opened, willRekey, didRekey
    case rekeyError(String)
    case databaseError(String)
    case willMigrate(Int, Int)
    case didMigrate(Int, Int)
    case closed, keyForgotten
}

/// A delegate that records every event in order; optionally runs a hook on open/create.
final class RecordingDelegate: DatabaseManagerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [RecordedEvent] = []
    var onOpenOrCreate: (@Sendable (DatabaseManager) -> Void)?

    var events: [RecordedEvent] { lock.withLock { _events } }

    private func record(_ event: RecordedEvent) { lock.withLock { _events.append(event) } }

    func databaseManagerDidCreateDatabase(_ manager: DatabaseManager) {
        record(.created)
        onOpenOrCreate?(manager)
    }
    func databaseManagerDidOpenDatabase(_ manager: DatabaseManager) {
        record(.opened)
        onOpenOrCreate?(manager)
    }
    func databaseManagerWillRekeyDatabase(_ manager: DatabaseManager) { record(.willRekey) }
    func databaseManagerDidRekeyDatabase(_ manager: DatabaseManager) { record(.didRekey) }
    func databaseManager(_ manager: DatabaseManager, didEncounterRekeyError error: DatabaseManagerError) {
        record(.rekeyError(error.caseName))
    }
    func databaseManager(_ manager: DatabaseManager, didEncounterDatabaseError error: DatabaseManagerError) {
        record(.databaseError(error.caseName))
    }
    func databaseManager(_ manager: DatabaseManager, willMigrateSchemaFrom oldVersion: Int, to newVersion: Int) {
        record(.willMigrate(oldVersion, newVersion))
    }
    func databaseManager(_ manager: DatabaseManager, didMigrateSchemaFrom oldVersion: Int, to newVersion: Int) {
        record(.didMigrate(oldVersion, newVersion))
    }
    func databaseManagerDidCloseDatabase(_ manager: DatabaseManager) { record(.closed) }
    func databaseManagerDidForgetKey(_ manager: DatabaseManager) { record(.keyForgotten) }
}

/// A migrator that records its calls and can fail.
final class MockSchemaMigrator: SchemaMigrator, @unchecked Sendable {
    let targetVersion: Int
    let failure: (any Error)?
    private let lock = NSLock()
    private var _calls: [Int] = []

    init(targetVersion: Int, failure: (any Error)? = nil) {
        self.targetVersion = targetVersion
        self.failure = failure
    }

    var calls: [Int] { lock.withLock { _calls } }

    func migrate(_ db: Database, from version: Int) throws {
        lock.withLock { _calls.append(version) }
        if let failure { throw failure }
        try db.setSchemaVersion(targetVersion)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String { "test failure" }
}
