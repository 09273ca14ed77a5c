import SQLCipherManager
import TerminalIO

// MARK: - DemoEvents

/// The manager's delegate: prints each event, as the original's app delegate logged them, and
/// locks the app when a rekey fails.
final class DemoEvents: DatabaseManagerDelegate {
    /// Called when a rekey failed: the app must lock and ask for the original password.
    let lockApp: @Sendable () -> Void

    init(lockApp: @escaping @Sendable () -> Void) {
        self.lockApp = lockApp
    }

    func databaseManagerDidCreate(_ manager: DatabaseManager) {
        Console.say("· Database created; handing off to the schema migrator.")
    }

    func databaseManagerDidOpen(_ manager: DatabaseManager) {
        Console.say("· Database opened.")
    }

    func databaseManager(_ manager: DatabaseManager, willMigrateFrom oldVersion: Int, to newVersion: Int) {
        Console.say("· Migrating the schema from version \(oldVersion) to \(newVersion)…")
    }

    func databaseManager(_ manager: DatabaseManager, didMigrateFrom oldVersion: Int, to newVersion: Int) {
        Console.say("· Schema is at version \(newVersion).")
    }

    func databaseManagerWillRekey(_ manager: DatabaseManager) {
        Console.say("· Changing the password…")
    }

    func databaseManagerDidRekey(_ manager: DatabaseManager) {
        Console.say("· Password changed.")
    }

    func databaseManager(_ manager: DatabaseManager, didFailToRekey error: DatabaseManagerError) {
        Console.sayEscaped("An error occurred changing the password (\(error)).")
        Console.say("The app is locked. Please log in again using your original password.")
        lockApp()
    }

    func databaseManager(_ manager: DatabaseManager, didFail error: DatabaseManagerError) {
        Console.warnEscaped("Database error: \(error)")
    }
}
