import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - passwd

extension NotesShell {
    /// Current password (three tries), then new + confirmation — asked again after an invalid
    /// or mismatched one, so no password is ever typed at the visible `notes>` prompt; an empty
    /// new password keeps the old one — then the rekey. A rekey error reaches the delegate,
    /// which locks the app: the shell then returns to the login prompt, where the original
    /// password still opens the database.
    func changePassword() throws {
        guard checkCurrentPassword() else { return }
        let policy = manager.configuration.passwordPolicy
        guard
            let new = Ask.newPassword(
                "New password (empty keeps the current one): ", confirm: "Confirm the new password: ",
                allowsEmptyToCancel: true, policy: policy.reasonToReject)
        else {
            return Console.say("The password is unchanged.")
        }
        let progress = ProgressLine("Re-encrypting")
        defer { progress.finish() }
        do {
            try manager.rekey(to: .password(new), progress: progress.update)
        } catch {
            // The delegate has already reported it and locked the app (didFailToRekey).
            if manager.isOpen { Console.sayEscaped("The password is unchanged: \(error)") }
        }
    }

    /// Asks for the current password, at most ``LoginFlow/maximumTries`` times.
    private func checkCurrentPassword() -> Bool {
        for attempt in 1...LoginFlow.maximumTries {
            guard let current = Ask.secret("Current password: ") else { return false }
            if manager.isCurrentPassword(current) { return true }
            let left = LoginFlow.maximumTries - attempt
            Console.say(
                left > 0
                    ? "Incorrect password (\(left) \(left == 1 ? "try" : "tries") left)."
                    : "Incorrect password; the password is unchanged.")
        }
        return false
    }
}
