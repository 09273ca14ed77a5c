import Foundation
import SQLCipherCore

/// The one place connections are opened and unlocked for the manager, its flows and the
/// export engine's verification (through
/// ``ExportOperation/init(_:target:install:key:configuration:)``).
enum Unlocking {
    /// Opens `path` and unlocks it: `sqlite3_open_v2`, the SQLCipher link check
    /// (`PRAGMA cipher_version`), `sqlite3_key`, the cipher pragmas, then a read of
    /// `sqlite_master` that proves the key. Any failure closes the connection and is diagnosed.
    ///
    /// Every attempt uses a fresh connection: a SQLCipher handle that saw a wrong key can
    /// reject the right one. A `nil` key opens a plaintext file (no key, no cipher pragmas).
    /// Before SQLite may replay a `-journal` or `-wal` into the real file,
    /// ``SidecarCheck/run(path:mode:key:configuration:)`` proves the key and the sidecar.
    static func connect(
        path: String, mode: Connection.Mode, key: SecretBytes?, configuration: DatabaseConfiguration
    ) throws -> Connection {
        do {
            // Before the sidecar check's own probe reads (and may roll back) a -journal.
            try FileSystem.refuseLinkedSidecars(of: path)
            try SidecarCheck.run(path: path, mode: mode, key: key, configuration: configuration)
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: path)
        }
        return try unlockedConnection(path: path, mode: mode, key: key, configuration: configuration)
    }

    /// `connect` without the sidecar check: open, key, cipher pragmas, the read that proves the key.
    static func unlockedConnection(
        path: String, mode: Connection.Mode, key: SecretBytes?, configuration: DatabaseConfiguration
    ) throws -> Connection {
        let connection: Connection
        do {
            // SQLite creates its -journal, -wal and -shm itself, following a link planted there.
            try FileSystem.refuseLinkedSidecars(of: path)
            connection = try Connection(path: path, mode: mode)
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: path)
        }
        var headerForm = false
        do {
            try connection.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
            let version = try LinkedLibrary.cipherVersion(of: connection)
            if let key {
                try configuration.cipher.validate(for: version)
                try key.withBytes { try connection.key($0) }
                for pragma in configuration.cipher.pragmas() {
                    try connection.executeScript(pragma)
                }
                if version >= SQLCipherVersion(4, 0, 0), let salt = try headerSalt(path: path, configuration: configuration) {
                    try connection.executeScript(HeaderSaltFile.sizePragma())
                    try connection.executeScript(HeaderSaltFile.pragma(salt))
                    headerForm = true
                }
            }
            try connection.executeScript("SELECT count(*) FROM sqlite_master")
            try connection.executeScript("PRAGMA temp_store = MEMORY")
            if configuration.foreignKeys { try connection.executeScript("PRAGMA foreign_keys = ON") }
            return connection
        } catch {
            connection.close()
            // With a plaintext header SQLCipher reads a refused key as a logic error (code 1).
            if headerForm, let refused = error as? SQLiteError, [.error, .notADatabase].contains(refused.code) {
                let saltFile = HeaderSaltFile.path(for: path)
                throw DatabaseManagerError.headerSaltUnusable(path: path, saltFile: saltFile, problem: .rejected)
            }
            throw DatabaseManagerError(diagnosing: error, path: path)
        }
    }

    /// The salt when the file at `path` is in the plaintext-header form, `nil` otherwise. The
    /// file decides (``HeaderSaltFile/hasPlaintextHeaderForm(_:)``), so a conversion cut short
    /// opens in either form and the options need not say; a new or empty file takes the
    /// options' form. A missing or damaged salt file is
    /// ``DatabaseManagerError/headerSaltUnusable(path:saltFile:problem:)``.
    static func headerSalt(path: String, configuration: DatabaseConfiguration) throws -> [UInt8]? {
        let header = DatabaseFile(path: path).header(count: KeyDerivation.saltLength) ?? []
        if header.count < KeyDerivation.saltLength {
            guard configuration.cipher.plaintextHeader else { return nil }
        } else {
            guard header == DatabaseFile.plaintextHeader, HeaderSaltFile.hasPlaintextHeaderForm(path) else { return nil }
        }
        return try configuration.headerSalt ?? HeaderSaltFile.read(for: path)
    }

    /// After an unlock: the file must hold a whole number of pages and at least as many pages as
    /// page 1 announces, or it was truncated.
    static func checkFileLength(_ connection: Connection, path: String) throws {
        let pageSize = try connection.int64("PRAGMA page_size") ?? 0
        let pageCount = try connection.int64("PRAGMA page_count") ?? 0
        guard let size = DatabaseFile(path: path).size, pageSize > 0 else { return }
        // In WAL mode the pages not yet checkpointed live in the -wal (for example after a crash),
        // so page_count may exceed what the main file holds.
        let inWAL = try connection.text("PRAGMA journal_mode") == "wal"
        if size % pageSize != 0 || (!inWAL && size < pageCount * pageSize) {
            throw DatabaseManagerError.corrupt(
                path: path,
                underlying: SQLiteError(
                    extendedCode: .corrupt,
                    message: "file is truncated: \(size) bytes for \(pageCount) pages of \(pageSize) bytes"))
        }
    }

    /// `true` when a fresh connection keyed with `key` reads the schema of the file at `path`.
    static func opens(path: String, key: SecretBytes, configuration: DatabaseConfiguration) -> Bool {
        guard let connection = try? unlockedConnection(path: path, mode: .readWrite, key: key, configuration: configuration) else {
            return false
        }
        connection.close()
        return true
    }
}
