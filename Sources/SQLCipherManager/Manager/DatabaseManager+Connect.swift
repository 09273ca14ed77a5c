import Foundation

// MARK: - Connecting

extension DatabaseManager {
    /// Opens `path` and unlocks it: `sqlite3_open_v2`, the SQLCipher link check
    /// (`PRAGMA cipher_version`), `sqlite3_key`, the cipher pragmas, then a read of
    /// `sqlite_master` that proves the key. Any failure closes the connection and is diagnosed.
    ///
    /// Every attempt uses a fresh connection: a SQLCipher handle that saw a wrong key can
    /// reject the right one. A `nil` key opens a plaintext file (no key, no cipher pragmas).
    /// Before SQLite may replay a `-journal` or `-wal` into the real file,
    /// ``checkSidecars(path:mode:key:configuration:)`` proves the key and the sidecar.
    static func connect(
        path: String, mode: Connection.Mode, key: SecretBytes?, configuration: DatabaseConfiguration
    ) throws -> Connection {
        do {
            try checkSidecars(path: path, mode: mode, key: key, configuration: configuration)
        } catch {
            throw diagnose(error, path: path)
        }
        return try unlockedConnection(path: path, mode: mode, key: key, configuration: configuration)
    }

    /// `connect` without the sidecar check: open, key, cipher pragmas, the read that proves the key.
    static func unlockedConnection(
        path: String, mode: Connection.Mode, key: SecretBytes?, configuration: DatabaseConfiguration
    ) throws -> Connection {
        let connection: Connection
        do {
            connection = try Connection(path: path, mode: mode)
        } catch {
            throw diagnose(error, path: path)
        }
        do {
            try connection.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
            let version = try linkedVersion(of: connection)
            if let key {
                try configuration.cipher.validate(for: version)
                try key.withBytes { try connection.key($0) }
                for pragma in configuration.cipher.pragmas() {
                    try connection.executeScript(pragma)
                }
            }
            try connection.executeScript("SELECT count(*) FROM sqlite_master")
            try connection.executeScript("PRAGMA temp_store = MEMORY")
            if configuration.foreignKeys { try connection.executeScript("PRAGMA foreign_keys = ON") }
            return connection
        } catch {
            connection.close()
            throw diagnose(error, path: path)
        }
    }

    /// The SQLCipher version a connection runs, or ``DatabaseManagerError/sqlcipherNotLinked``.
    static func linkedVersion(of connection: Connection) throws -> SQLCipherVersion {
        let text = try Database(connection: connection).scalar(String.self, "PRAGMA cipher_version")
        guard let text, !text.isEmpty else { throw DatabaseManagerError.sqlcipherNotLinked }
        guard let version = SQLCipherVersion(parsing: text) else { throw DatabaseManagerError.sqlcipherNotLinked }
        return version
    }

    // MARK: - Diagnosis

    /// Turns a failure to open or unlock `path` into the error a user can act on, looking at the
    /// file itself where SQLite's code is ambiguous (26 means wrong key, other settings,
    /// plaintext file or not a database).
    static func diagnose(_ error: any Error, path: String) -> DatabaseManagerError {
        if let error = error as? DatabaseManagerError { return error }
        if let failure = error as? FileSystem.Failure { return DatabaseManagerError(failure) }
        guard let error = error as? SQLiteError else {
            return .ioError(path: path, underlying: nil)
        }
        switch error.extendedCode {
        case .notADatabase:
            if let fileError = diagnoseFile(path: path) { return fileError }
            return .incorrectPasswordOrSettings(path: path)
        case .corrupt: return .corrupt(path: path, underlying: error)
        case .cantOpen:
            if let fileError = diagnoseFile(path: path) { return fileError }
            return .permissionDenied(path: path, underlying: error)
        case .permission, .auth, .readOnly: return .permissionDenied(path: path, underlying: error)
        case .full: return .diskFull(path: path, underlying: error)
        case .ioError: return .ioError(path: path, underlying: error)
        case .busy, .locked: return .busy(path: path, underlying: error)
        default: return .sqlite(error)
        }
    }

    /// What is wrong with the file at `path` before any key is tried, or `nil` when it could be
    /// an SQLCipher database.
    static func diagnoseFile(path: String) -> DatabaseManagerError? {
        let file = DatabaseFile(path: path)
        if let reason = file.pathProblem { return .invalidPath(path: path, reason: reason) }
        switch file.kind() {
        case .missing: return .fileNotFound(path: path)
        case .parentMissing: return .parentFolderMissing(path: path)
        case .directory: return .isFolder(path: path)
        case .unreadable: return .permissionDenied(path: path, underlying: nil)
        case .empty: return .notADatabase(path: path, reason: "the file is empty (0 bytes)")
        case .special: return .notADatabase(path: path, reason: "it is not a regular file (a pipe, socket or device)")
        case .plaintextSQLite:
            return file.plaintextHeaderProblem.map { .notADatabase(path: path, reason: $0) } ?? .plaintextDatabase(path: path)
        case .opaque(let size) where size < 512 || size % 512 != 0:
            return .notADatabase(path: path, reason: "its size (\(size) bytes) is not a whole number of pages")
        case .opaque: return nil
        }
    }

    /// After an unlock: the file must hold a whole number of pages and at least as many pages as
    /// page 1 announces, or it was truncated.
    static func checkFileLength(_ connection: Connection, path: String) throws {
        let db = Database(connection: connection)
        let pageSize = try db.scalar(Int64.self, "PRAGMA page_size") ?? 0
        let pageCount = try db.scalar(Int64.self, "PRAGMA page_count") ?? 0
        guard let size = DatabaseFile(path: path).size, pageSize > 0 else { return }
        // In WAL mode the pages not yet checkpointed live in the -wal (for example after a crash),
        // so page_count may exceed what the main file holds.
        let inWAL = try db.scalar(String.self, "PRAGMA journal_mode") == "wal"
        if size % pageSize != 0 || (!inWAL && size < pageCount * pageSize) {
            throw DatabaseManagerError.corrupt(path: path, underlying: SQLiteError(
                extendedCode: .corrupt,
                message: "file is truncated: \(size) bytes for \(pageCount) pages of \(pageSize) bytes"))
        }
    }
}

extension DatabaseManagerError {
    /// `true` for failures the delegate hears about through `didEncounterDatabaseError`: not the
    /// user's password, not a misuse of the manager.
    var isReportable: Bool {
        switch self {
        case .invalidPassword, .incorrectPasswordOrSettings, .incorrectKeyOrSettings, .invalidKeyLength, .alreadyOpen, .notOpen,
             .notConfigured, .noCachedKey, .transactionInProgress:
            return false
        default:
            return true
        }
    }
}
