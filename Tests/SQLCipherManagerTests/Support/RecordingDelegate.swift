import Foundation
import SQLCipherManager

/// One recorded delegate event.
enum RecordedEvent: Equatable, Sendable {
    case didCreate, didOpen, willRekey, didRekey
    case didFailToRekey(String)
    case didFail(String)
    case willMigrate(Int, Int)
    case didMigrate(Int, Int)
    case didClose, didForgetKey
    /// The format's SQLCipher major version.
    case didFindOlderFormat(Int)
    case willUpgradeFormat(Int)
    case didUpgradeFormat(Int, Int)
    case didFailToUpgradeFormat(String)
}

/// A delegate that records every event in order; optionally runs a hook on open/create.
final class RecordingDelegate: DatabaseManagerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [RecordedEvent] = []
    var onOpenOrCreate: (@Sendable (DatabaseManager) -> Void)?

    var events: [RecordedEvent] { lock.withLock { _events } }

    private func record(_ event: RecordedEvent) { lock.withLock { _events.append(event) } }

    func databaseManagerDidCreate(_ manager: DatabaseManager) {
        record(.didCreate)
        onOpenOrCreate?(manager)
    }
    func databaseManagerDidOpen(_ manager: DatabaseManager) {
        record(.didOpen)
        onOpenOrCreate?(manager)
    }
    func databaseManagerWillRekey(_ manager: DatabaseManager) { record(.willRekey) }
    func databaseManagerDidRekey(_ manager: DatabaseManager) { record(.didRekey) }
    func databaseManager(_ manager: DatabaseManager, didFailToRekey error: DatabaseManagerError) {
        record(.didFailToRekey(error.caseName))
    }
    func databaseManager(_ manager: DatabaseManager, didFail error: DatabaseManagerError) {
        record(.didFail(error.caseName))
    }
    func databaseManager(_ manager: DatabaseManager, willMigrateFrom oldVersion: Int, to newVersion: Int) {
        record(.willMigrate(oldVersion, newVersion))
    }
    func databaseManager(_ manager: DatabaseManager, didMigrateFrom oldVersion: Int, to newVersion: Int) {
        record(.didMigrate(oldVersion, newVersion))
    }
    func databaseManagerDidClose(_ manager: DatabaseManager) { record(.didClose) }
    func databaseManagerDidForgetKey(_ manager: DatabaseManager) { record(.didForgetKey) }
    func databaseManager(_ manager: DatabaseManager, didFindOlderFormat format: DatabaseFileFormat) {
        record(.didFindOlderFormat(format.majorVersion))
    }
    func databaseManager(_ manager: DatabaseManager, willUpgradeFormatFrom format: DatabaseFileFormat) {
        record(.willUpgradeFormat(format.majorVersion))
    }
    func databaseManager(_ manager: DatabaseManager, didUpgradeFormatFrom oldFormat: DatabaseFileFormat, to newFormat: DatabaseFileFormat) {
        record(.didUpgradeFormat(oldFormat.majorVersion, newFormat.majorVersion))
    }
    func databaseManager(_ manager: DatabaseManager, didFailToUpgradeFormat error: DatabaseManagerError) {
        record(.didFailToUpgradeFormat(error.caseName))
    }
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
