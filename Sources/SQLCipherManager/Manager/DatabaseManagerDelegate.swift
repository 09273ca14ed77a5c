// MARK: - DatabaseManagerDelegate
import SQLCipherCore

/// Receives a ``DatabaseManager``'s events. Every method has a default implementation that
/// does nothing, so implement only what you need. The methods are named as Swift names
/// delegate methods, one per ``DatabaseEvent`` case of the same verb; the original's
/// Objective-C names are given beside each.
///
/// Methods are called synchronously on the thread that ran the flow, once the flow has released
/// the manager's lock, never under it: a delegate may call any member of the manager — read
/// ``DatabaseManager/schemaVersion``, run a query, hand off to a migrator — or wait for another
/// thread that does, without deadlock. A `will…` event of ``DatabaseManager/rekey(to:options:progress:)``
/// (and the other key changes), ``DatabaseManager/migrate(using:)`` and
/// ``DatabaseManager/upgradeFormat(progress:)`` arrives before the work starts, with the lock
/// released: the file is still as it was, and the delegate can show progress or read the
/// manager. The other events, and the `will…` events of the steps an open or create runs
/// itself (the migration, the format upgrade on open), are delivered when that flow returns.
/// Each event fires exactly once per flow, in this order:
///
/// - create: `didCreate` → (`willMigrate` → `didMigrate`)
/// - open: `didOpen` → (`didFindOlderFormat` → (`willUpgradeFormat` → `didUpgradeFormat` or
///   `didFailToUpgradeFormat`)) → (`willMigrate` → `didMigrate`); the upgrade only with
///   ``DatabaseConfiguration/upgradesFormatOnOpen``
/// - format upgrade: `willUpgradeFormat` → `didUpgradeFormat`, or `willUpgradeFormat` → `didFailToUpgradeFormat`
/// - a failed create/open/migration (not a wrong or invalid password): `didFail`
/// - rekey: `willRekey` → `didRekey`, or `willRekey` → `didFailToRekey`
/// - close: `didClose` (when a database was open); `close(forgettingKey: true)`:
///   `didClose` → `didForgetKey` (each when there was something to close or forget)
public protocol DatabaseManagerDelegate: AnyObject, Sendable {
    /// A new database file was created and is open (the original's `didCreateDatabase`).
    func databaseManagerDidCreate(_ manager: DatabaseManager)
    /// An existing database file was unlocked and is open (the original's `didOpenDatabase`).
    func databaseManagerDidOpen(_ manager: DatabaseManager)
    /// A rekey is about to start; the file still has the old key (the original's
    /// `sqlCipherManagerWillRekeyDatabase`).
    func databaseManagerWillRekey(_ manager: DatabaseManager)
    /// A rekey succeeded (the original's `sqlCipherManagerDidRekeyDatabase`, which was sent on failure too).
    func databaseManagerDidRekey(_ manager: DatabaseManager)
    /// A rekey failed; the database is intact and still opens with the old password (`didEncounterRekeyError`).
    func databaseManager(_ manager: DatabaseManager, didFailToRekey error: DatabaseManagerError)
    /// A create, open or migration failed for a reason other than the password (`didEncounterDatabaseError`,
    /// which the original declared but never sent).
    func databaseManager(_ manager: DatabaseManager, didFail error: DatabaseManagerError)
    /// The schema migrator is about to move the schema (`PRAGMA user_version`) from one version to
    /// another; nothing is migrated yet.
    func databaseManager(_ manager: DatabaseManager, willMigrateFrom oldVersion: Int, to newVersion: Int)
    /// The schema migrator moved the schema from one version to another.
    func databaseManager(_ manager: DatabaseManager, didMigrateFrom oldVersion: Int, to newVersion: Int)
    /// The open database was closed (``DatabaseManager/close(forgettingKey:)``,
    /// ``DatabaseManager/reopen()``, a failed migration); the key stays cached. Not in the original,
    /// whose `closeDatabase` told nobody.
    func databaseManagerDidClose(_ manager: DatabaseManager)
    /// ``DatabaseManager/close(forgettingKey:)`` forgot the cached key: the next open needs the password again.
    func databaseManagerDidForgetKey(_ manager: DatabaseManager)
    /// The open found the database in an older SQLCipher format than the linked library writes,
    /// without the app naming its settings (a SQLCipher 3 file on SQLCipher 4):
    /// ``DatabaseManager/upgradeFormat(progress:)`` converts it. Not in the original.
    func databaseManager(_ manager: DatabaseManager, didFindOlderFormat format: DatabaseFileFormat)
    /// A format upgrade is about to start (``DatabaseManager/upgradeFormat(progress:)``); the file is as it was.
    func databaseManager(_ manager: DatabaseManager, willUpgradeFormatFrom format: DatabaseFileFormat)
    /// A format upgrade succeeded: the file is in the linked SQLCipher's format, and open.
    func databaseManager(_ manager: DatabaseManager, didUpgradeFormatFrom oldFormat: DatabaseFileFormat, to newFormat: DatabaseFileFormat)
    /// A format upgrade failed; the file is as it was, and open again.
    func databaseManager(_ manager: DatabaseManager, didFailToUpgradeFormat error: DatabaseManagerError)
}

// MARK: - Default implementations

extension DatabaseManagerDelegate {
    /// Does nothing by default.
    public func databaseManagerDidCreate(_ manager: DatabaseManager) {}
    /// Does nothing by default.
    public func databaseManagerDidOpen(_ manager: DatabaseManager) {}
    /// Does nothing by default.
    public func databaseManagerWillRekey(_ manager: DatabaseManager) {}
    /// Does nothing by default.
    public func databaseManagerDidRekey(_ manager: DatabaseManager) {}
    /// Does nothing by default.
    public func databaseManager(_ manager: DatabaseManager, didFailToRekey error: DatabaseManagerError) {}
    /// Does nothing by default.
    public func databaseManager(_ manager: DatabaseManager, didFail error: DatabaseManagerError) {}
    /// Does nothing by default.
    public func databaseManager(_ manager: DatabaseManager, willMigrateFrom oldVersion: Int, to newVersion: Int) {}
    /// Does nothing by default.
    public func databaseManager(_ manager: DatabaseManager, didMigrateFrom oldVersion: Int, to newVersion: Int) {}
    /// Does nothing by default.
    public func databaseManagerDidClose(_ manager: DatabaseManager) {}
    /// Does nothing by default.
    public func databaseManagerDidForgetKey(_ manager: DatabaseManager) {}
    /// Does nothing by default.
    public func databaseManager(_ manager: DatabaseManager, didFindOlderFormat format: DatabaseFileFormat) {}
    /// Does nothing by default.
    public func databaseManager(_ manager: DatabaseManager, willUpgradeFormatFrom format: DatabaseFileFormat) {}
    /// Does nothing by default.
    public func databaseManager(
        _ manager: DatabaseManager, didUpgradeFormatFrom oldFormat: DatabaseFileFormat, to newFormat: DatabaseFileFormat
    ) {}
    /// Does nothing by default.
    public func databaseManager(_ manager: DatabaseManager, didFailToUpgradeFormat error: DatabaseManagerError) {}
}
