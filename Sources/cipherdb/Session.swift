import Foundation
import SQLCipherManager

// MARK: - Session

/// Builds the manager for an invocation's database with its `--kdf-iter` / `--page-size`.
enum Session {
    static func manager(for invocation: Invocation, path: String? = nil) -> DatabaseManager {
        DatabaseManager(
            url: URL(fileURLWithPath: path ?? invocation.path),
            configuration: DatabaseConfiguration(cipher: cipherOptions(invocation)))
    }

    /// The cipher options given on the command line; `nil` values keep SQLCipher's defaults.
    static func cipherOptions(_ invocation: Invocation) -> CipherOptions {
        CipherOptions(
            kdfIterations: invocation.number(.kdfIter), pageSize: invocation.number(.pageSize),
            usesHMAC: invocation.has(.noHMAC) ? false : nil, compatibility: invocation.number(.compatibility),
            allowsLegacyKDFIterations: invocation.has(.legacyKDF))
    }

    /// Opens the invocation's database with `password` (default: its password source), runs
    /// `body`, and closes it. A file that cannot be unlocked is refused before the password is read;
    /// a password that does not open it is diagnosed (``SettingsMismatch``).
    static func withOpenDatabase<T>(
        _ invocation: Invocation, password: SecretBytes? = nil, _ body: (DatabaseManager) throws -> T
    ) throws -> T {
        let manager = manager(for: invocation)
        if let problem = DatabaseTools.inspectFile(at: URL(fileURLWithPath: invocation.path)).problemBeforeUnlock {
            throw problem
        }
        if password == nil, let key = try KeyFile.key(invocation) {
            try manager.open(.key(key))
            defer { manager.close() }
            return try body(manager)
        }
        let password = try password ?? Passwords(invocation: invocation).current()
        do {
            try manager.open(.password(password))
        } catch DatabaseManagerError.incorrectPasswordOrSettings(let path, _) {
            // A diagnosis that cannot run (the file vanished, an I/O error) leaves the plain answer.
            // Key slots hold the key: other cipher settings cannot be the reason.
            if manager.keySlots.isEnabled { throw KeyCommands.wrongSecret(path: invocation.path) }
            if let mismatch = try? SettingsMismatch(path: invocation.path, manager: manager, password: password) {
                throw mismatch
            }
            throw DatabaseManagerError.incorrectPasswordOrSettings(path: path)
        }
        defer { manager.close() }
        return try body(manager)
    }
}
