import Foundation
import SQLCipherCore

// MARK: - Encrypting a plaintext database

extension DatabaseManager {
    // MARK: - Flow

    /// Recovers earlier interruptions, checks the source header, then runs the export operation.
    static func encryptFlow(
        source: String, destination: String?, key: SecretBytes,
        configuration: DatabaseConfiguration, progress: ((Double) -> Void)?
    ) throws {
        do {
            try recoverInterruptedOperation(atPath: source)
            if let destination { try recoverInterruptedOperation(atPath: destination) }
            if let problem = DatabaseManagerError(problemBeforeEncryptingAt: source) { throw problem }
            if let version = LinkedLibrary.cipherVersion { try configuration.cipher.validate(for: version) }
            let operation = ExportOperation(
                .encrypt, target: destination ?? source, install: destination == nil ? .replace : .create,
                key: DerivedKeys.keyForNewFile(key, cipher: configuration.cipher).material, configuration: configuration)
            let open = { (mode: Connection.Mode) in try Unlocking.connect(path: source, mode: mode, key: nil, configuration: configuration) }
            guard destination == nil else {
                let connection = try open(FileSystem.isWritable(source) ? .readWrite : .readOnly)
                defer { connection.close() }
                return try operation.create(from: connection, progress: progress)
            }
            // In place: only while no other program has the file open (see ExportOperation).
            try operation.replace(releaseSource: {}, openSource: { try open(.readWrite) }, progress: progress)
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: destination ?? source)
        }
    }

    // MARK: - Adopt on open

    /// With ``DatabaseConfiguration/adoptsPlaintextDatabase``, encrypts a plaintext file found
    /// at `path` in place with the key being opened with.
    func adoptPlaintextDatabaseIfConfigured(path: String, key: SecretBytes) throws {
        guard willAdoptPlaintextDatabase(path: path) else { return }
        try Self.encryptFlow(source: path, destination: nil, key: key, configuration: configuration, progress: nil)
    }

    /// `true` when an open of `path` would encrypt it first: the configuration adopts plaintext
    /// files and the file is one.
    func willAdoptPlaintextDatabase(path: String) -> Bool {
        configuration.adoptsPlaintextDatabase && [.plaintextSQLite, .damagedSQLiteHeader].contains(DatabaseFile(path: path).kind())
    }
}
