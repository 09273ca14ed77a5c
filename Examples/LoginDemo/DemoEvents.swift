import SQLCipherManager
import TerminalIO

// MARK: - DemoEvents

/// The manager's delegate: prints each event, as the seed's app delegate logged them, and
/// locks the app when a rekey fails.
final class DemoEvents: DatabaseManagerDelegate {
    /// Called when a rekey failed: the app must lock and ask for the original password.
    let lockApp: @Sendable () -> Void

    init(lockApp: @escaping @Sendable () -> Void) {
        self.lockApp = lockApp
    }

    func databaseManagerDidCreateDatabase(_ manager: DatabaseManager) {
        Console.say("· Database created; handing off to the schema migrator.")
    }

    func databaseManagerDidOpenDatabase(_ manager: DatabaseManager) {
        Console.say("· Database opened.")
    }

    func databaseManager(_ manager: DatabaseManager, willMigrateSchemaFrom oldVersion: Int, to newVersion: Int) {
        Console.say("· Migrating the schema from version \(oldVersion) to \(newVersion)…")
    }

    func databaseManager(_ manager: DatabaseManager, didMigrateSchemaFrom oldVersion: Int, to newVersion: Int) {
        Console.say("· Schema is at version \(newVersion).")
    }

    func databaseManagerWillRekeyDatabase(_ manager: DatabaseManager) {
        Console.say("· Changing the password…")
    }

    func databaseManagerDidRekeyDatabase(_ manager: DatabaseManager) {
        Console.say("· Password changed.")
    }

    func databaseManager(_ manager: DatabaseManager, didEncounterRekeyError error: DatabaseManagerError) {
        Console.sayEscaped("An error occurred changing the password (\(error)).")
        Console.say("The app is locked. Please log in again using your original password.")
        lockApp()
    }

    func databaseManager(_ manager: DatabaseManager, didEncounterDatabaseError error: DatabaseManagerError) {
        Console.warnEscaped("Database error: \(error)")
    }
}
