import Foundation

// MARK: - Opening with a DatabaseKey

extension DatabaseManager {
    /// Creates a new database keyed with a raw ``DatabaseKey`` (SQLCipher's `x'…'` key form,
    /// given through `sqlite3_key`, no PBKDF2) and opens it; otherwise as ``create(password:)``.
    public func create(key: DatabaseKey) throws {
        try locked { try openFlow(key: key.sqlcipherKey, creating: true) }
    }

    /// Opens an existing database with a raw ``DatabaseKey`` (`sqlite3_key` with `x'…'`);
    /// otherwise as ``open(password:)``.
    ///
    /// - Throws: ``DatabaseManagerError/incorrectPasswordOrSettings(path:)`` when the key does not
    ///   decrypt the file (left untouched), and the other errors of ``open(password:)``.
    public func open(key: DatabaseKey) throws {
        try locked { try openFlow(key: keySlotKey(for: key, path: requirePath()) ?? key.sqlcipherKey, creating: false) }
    }

    /// Changes the open database's key to `key` (crash-safe export, `ATTACH … KEY ?`); otherwise
    /// as ``rekey(password:options:progress:)``.
    public func rekey(key: DatabaseKey, options: CipherOptions? = nil, progress: ((Double) -> Void)? = nil) throws {
        try locked {
            try refuseKeySlotRekey()
            try rekeyFlow(key: key.sqlcipherKey, options: options, progress: progress)
        }
    }

    /// Encrypts a plaintext SQLite database with `key`, in place or into `destination`
    /// (`sqlcipher_export` into a file attached with `ATTACH … KEY ?`); otherwise as
    /// ``encryptPlaintextDatabase(at:to:password:configuration:progress:)``.
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, key: DatabaseKey,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        try encryptFlow(
            source: source.path, destination: destination?.path, key: key.sqlcipherKey,
            configuration: configuration, progress: progress)
    }
}
