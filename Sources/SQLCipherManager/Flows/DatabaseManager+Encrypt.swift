import Foundation
import SQLCipherCore

// MARK: - Encrypting a plaintext database on open

extension DatabaseManager {
    /// With ``DatabaseConfiguration/adoptsPlaintextDatabase``, encrypts a plaintext file found
    /// at `path` in place with the key being opened with.
    func adoptPlaintextDatabaseIfConfigured(path: String, key: SecretBytes) throws {
        guard willAdoptPlaintextDatabase(path: path) else { return }
        try EncryptFlow(source: path, destination: nil, key: key, configuration: configuration).run(progress: nil)
    }

    /// `true` when an open of `path` would encrypt it first: the configuration adopts plaintext
    /// files and the file is one.
    func willAdoptPlaintextDatabase(path: String) -> Bool {
        configuration.adoptsPlaintextDatabase && [.plaintextSQLite, .damagedSQLiteHeader].contains(DatabaseFile(path: path).kind())
    }
}
