import Foundation

// MARK: - Encrypting a plaintext database

extension DatabaseManager {
    /// Encrypts an existing plaintext SQLite database with a password, in place or into a new file.
    ///
    /// The SQLCipher way (`sqlite3_key`/`PRAGMA rekey` cannot encrypt a plaintext file): the
    /// source is opened without a key, a new file is attached with `ATTACH DATABASE ? AS … KEY ?`
    /// (path and password bound, never in SQL text), the cipher pragmas of
    /// `configuration.cipher` are applied to it, and `SELECT sqlcipher_export(…)` copies every
    /// table, index, view and trigger in one transaction; `user_version` and `application_id`
    /// (which the export skips) are copied too. The copy is then opened on a fresh connection
    /// with the password and checked (`PRAGMA integrity_check`, schema, row count of every table).
    ///
    /// - In place (`destination == nil`): the copy replaces the source with one atomic `rename`;
    ///   only then are the plaintext file and its `-wal`, `-shm` and `-journal` gone. A crash at
    ///   any moment leaves either the plaintext file or the encrypted one, with every row (the
    ///   next open, or ``recoverInterruptedOperation(at:)``, cleans up).
    /// - To `destination`: the source is not modified; the destination appears only once
    ///   complete (`link`, which never overwrites).
    ///
    /// - Parameters:
    ///   - source: the plaintext SQLite database.
    ///   - destination: `nil` to encrypt in place, or a path where nothing exists yet.
    ///   - password: the new password; it must satisfy `configuration.passwordPolicy`.
    ///   - configuration: the cipher options of the encrypted file, and its password policy.
    ///   - progress: called on this thread with the fraction done, 0…1.
    /// - Throws: ``DatabaseManagerError/notPlaintextDatabase(path:)`` when the source is encrypted
    ///   or not a database, ``DatabaseManagerError/fileNotFound(path:)``,
    ///   ``DatabaseManagerError/fileAlreadyExists(path:)`` when `destination` exists,
    ///   ``DatabaseManagerError/invalidPassword(reason:)``,
    ///   ``DatabaseManagerError/permissionDenied(path:underlying:)`` for a read-only file or folder,
    ///   ``DatabaseManagerError/insufficientDiskSpace(path:needed:available:)``,
    ///   ``DatabaseManagerError/verificationFailed(path:reason:)``. On any error the source is
    ///   unchanged and no destination is left.
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, password: String,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        try configuration.passwordPolicy.validate(password)
        try encryptFlow(
            source: source.path, destination: destination?.path, key: SecretBytes(password: password),
            configuration: configuration, progress: progress)
    }

    /// Encrypts an existing plaintext SQLite database with a raw 32-byte key (SQLCipher's
    /// `x'…'` key form, bound to `ATTACH … KEY ?`); otherwise as
    /// ``encryptPlaintextDatabase(at:to:password:configuration:progress:)``.
    ///
    /// - Throws: ``DatabaseManagerError/invalidKeyLength(_:)`` unless the key is 32 bytes, and the
    ///   errors of the password variant.
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, rawKey: Data,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        try encryptFlow(
            source: source.path, destination: destination?.path, key: rawKeyMaterial(rawKey),
            configuration: configuration, progress: progress)
    }

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
            if let version = linkedSQLCipherVersion { try configuration.cipher.validate(for: version) }
            let operation = exportOperation(
                .encrypt, target: destination ?? source, install: destination == nil ? .replace : .create,
                key: keyForNewFile(key, cipher: configuration.cipher).material, configuration: configuration)
            let writable = destination == nil || FileSystem.isWritable(source)
            let connection = try connect(path: source, mode: writable ? .readWrite : .readOnly, key: nil, configuration: configuration)
            defer { connection.close() }
            // In place, plain SQLite connections of other programs may be writing the file:
            // a connection of its own holds its write lock until the encrypted copy replaced it.
            let lockConnection = { try connect(path: source, mode: .readWrite, key: nil, configuration: configuration) }
            try operation.run(
                source: connection, lockConnection: destination == nil ? lockConnection : nil,
                releaseSource: { connection.close() }, progress: progress)
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
