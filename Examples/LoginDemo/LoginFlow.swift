import SQLCipherManager
import TerminalIO

// MARK: - LoginFlow

/// The original SQLCipher Manager's login view as a terminal dialogue: on the first run a new password and its
/// confirmation create the database; later, up to three tries open it.
struct LoginFlow {
    enum Outcome {
        case loggedIn
        /// Three wrong passwords, or a problem no password can fix.
        case failed
        /// Ctrl-D or the end of piped input.
        case endOfInput
    }

    static let maximumTries = 3
    let manager: DatabaseManager

    func run() -> Outcome {
        manager.databaseExists ? logIn() : createDatabase()
    }

    /// First run: new password, rejected with the policy's reason if invalid, then confirmed.
    private func createDatabase() -> Outcome {
        Console.sayEscaped("No database at \(manager.databaseURL?.path ?? "?") yet. Choose a password to create it.")
        let policy = manager.configuration.passwordPolicy
        guard
            let password = Ask.newPassword(
                "New password: ", confirm: "Confirm your password: ",
                allowsEmptyToCancel: false, policy: policy.reasonToReject)
        else {
            return .endOfInput
        }
        do {
            try manager.create(.password(password))
            return .loggedIn
        } catch {
            Console.sayEscaped("Could not create the database: \(error)")
            return .failed
        }
    }

    /// Later runs: "Incorrect password" and ask again, at most three tries.
    private func logIn() -> Outcome {
        for attempt in 1...Self.maximumTries {
            guard let password = Ask.secret("Password: ") else { return .endOfInput }
            do {
                try manager.open(.password(password))
                return .loggedIn
            } catch DatabaseManagerError.incorrectPasswordOrSettings, DatabaseManagerError.invalidPassword {
                let left = Self.maximumTries - attempt
                Console.say(left > 0 ? "Incorrect password (\(left) \(left == 1 ? "try" : "tries") left)." : "Incorrect password.")
            } catch {
                Console.sayEscaped("Could not open the database: \(error)")
                return .failed
            }
        }
        Console.say("Too many incorrect passwords; giving up.")
        return .failed
    }
}
