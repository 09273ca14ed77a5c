import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - passwd

extension NotesShell {
    /// Current password, then new + confirmation, then the rekey. A rekey error reaches the
    /// delegate, which locks the app: the shell then returns to the login prompt, where the
    /// original password still opens the database.
    func changePassword() throws {
        guard let current = Ask.secret("Current password: ") else { return }
        guard manager.isCurrentPassword(current) else { return Console.say("Incorrect password; the password is unchanged.") }
        guard let new = Ask.secret("New password: ") else { return }
        if let reason = manager.configuration.passwordPolicy.reasonToReject(new) {
            return Console.say("Invalid password: \(reason). The password is unchanged.")
        }
        guard let confirmation = Ask.secret("Confirm the new password: ") else { return }
        guard confirmation == new else { return Console.say("Passwords didn't match. The password is unchanged.") }
        let progress = ProgressLine("Re-encrypting")
        defer { progress.finish() }
        do {
            try manager.rekey(to: new, progress: progress.update)
        } catch {
            // The delegate has already reported it and locked the app (didEncounterRekeyError).
            if manager.isOpen { Console.say("The password is unchanged: \(error)") }
        }
    }
}
