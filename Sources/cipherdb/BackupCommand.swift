import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - backup

/// `cipherdb backup DB --to PATH`: ``DatabaseManager/backup(to:key:options:progress:)-2vlr9``, keyed
/// like DB, or with `--new-password-env` / `--new-password-file` / `--new-key-file`. A key-slot
/// database needs one of those (its backup is a password database).
enum BackupCommand {
    static func run(_ invocation: Invocation) throws {
        guard let destination = invocation.value(.to) else {
            throw Failure.usage("backup needs --to PATH: the backup is always a new file.")
        }
        if FileManager.default.fileExists(atPath: destination) {
            throw DatabaseManagerError.fileAlreadyExists(path: destination)
        }
        let newKey = try KeyFile.key(invocation, .newKeyFile)
        let newPassword = invocation.has(.newPasswordEnv) || invocation.has(.newPasswordFile)
        if newKey != nil, newPassword {
            throw Failure.usage("--new-key-file and a --new-password-… option both give the backup's key. Use one.")
        }
        // Read before the database is opened, so a bad source fails before anything starts.
        let key: BackupKey =
            if let newKey { .key(newKey) } else if newPassword {
                .password(try Passwords(invocation: invocation).replacement())
            } else { .sameAsSource }
        let target = URL(fileURLWithPath: destination)
        try Session.withOpenDatabase(invocation) { manager in
            try MigrationCommands.withProgress("Backing up") { try manager.backup(to: target, key: key, progress: $0) }
        }
        Console.sayEscaped(
            "Wrote a verified backup of \(invocation.path) to \(destination)"
                + (newKey == nil && !newPassword ? ", with the same password or key." : ", with its new password or key."))
    }
}
