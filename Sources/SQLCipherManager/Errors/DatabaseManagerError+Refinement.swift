import SQLCipherCore

// MARK: - Diagnosis after the fact

extension DatabaseManagerError {
    /// A failed unlock of a file smaller than one page of the settings tried (`pageSize`), and
    /// smaller than 1024 bytes (the least any SQLCipher writes by default), is not a wrong
    /// password: the file is truncated (or was written with a smaller page size). A larger file
    /// may simply use smaller pages than the ones tried: that stays "other settings".
    /// A wrong raw key (`rawKey`) is ``DatabaseManagerError/incorrectKeyOrSettings(path:)``.
    func refinedUnlockFailure(path: String, pageSize: Int, rawKey: Bool = false) -> DatabaseManagerError {
        guard case .incorrectPasswordOrSettings = kind, let size = DatabaseFile(path: path).size else { return self }
        guard size < min(pageSize, 1024) else { return rawKey ? .incorrectKeyOrSettings(path: path) : self }
        return .notADatabase(
            path: path,
            reason: "it is only \(size) bytes, less than one \(pageSize)-byte page, so it is "
                + "truncated (or was written with a smaller page size)")
    }

    /// `SQLITE_NOTADB` from a statement on a connection whose key was proven when it opened:
    /// page 1 did not decrypt this time (3.4.1 and 4.6.1 report a damaged data page as
    /// `SQLITE_CORRUPT`). That is a key changed by another program only if the key no longer
    /// unlocks the file (`keyStillUnlocks` false): ``keyChanged(path:)``; otherwise the read met
    /// a damaged page: ``corrupt(path:underlying:)`` (see ``damagedPage(path:after:)``), and the
    /// manager is not closed for a key that still works.
    static func unreadablePage(_ error: SQLiteError, path: String, keyStillUnlocks: Bool) -> DatabaseManagerError {
        keyStillUnlocks ? damagedPage(path: path, after: error) : .keyChanged(path: path)
    }

    /// ``corrupt(path:underlying:)`` for a page that did not decrypt once the key was proven:
    /// `SQLITE_NOTADB`, or the `SQLITE_ERROR` SQLCipher 4 leaves a check that met such a page
    /// with (its pager error state). The underlying error is then `SQLITE_CORRUPT`, as SQLCipher
    /// 3 reports the same damage, and says which check failed.
    static func damagedPage(path: String, after error: SQLiteError) -> DatabaseManagerError {
        guard error.code == .notADatabase || error.code == .error else { return .corrupt(path: path, underlying: error) }
        let message = "database disk image is malformed: a page does not decrypt with the key that decrypted page 1"
        return .corrupt(path: path, underlying: SQLiteError(extendedCode: .corrupt, message: message, sql: error.sql))
    }

    /// A statement's failure that is about the file, not the SQL, said like the same error at
    /// open: `SQLITE_CORRUPT` → ``DatabaseManagerError/corrupt(path:underlying:)``,
    /// `SQLITE_NOTADB` → ``DatabaseManagerError/keyChanged(path:)`` (the callers that can try
    /// the key again on a fresh connection tell a damaged page apart first, with
    /// ``unreadablePage(_:path:keyStillUnlocks:)``), `SQLITE_BUSY` and `SQLITE_LOCKED` →
    /// ``DatabaseManagerError/busy(path:underlying:)``, each with the path and the SQLite error;
    /// `SQLITE_READONLY` (any extended code) → ``DatabaseManagerError/notWritable(path:reason:)``
    /// with the cause the file system gives, and `SQLITE_CANTOPEN` too when the file system
    /// names one (a journal that cannot be created). Any other error is returned as it is.
    static func translatingQueryError(_ error: any Error, path: String) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        switch error.code {
        case .corrupt: return DatabaseManagerError.corrupt(path: path, underlying: error)
        case .notADatabase: return DatabaseManagerError.keyChanged(path: path)
        case .busy, .locked: return DatabaseManagerError.busy(path: path, underlying: error)
        case .readOnly: return DatabaseManagerError.notWritable(path: path, reason: FileSystem.writeRefusal(at: path) ?? .unknown)
        case .cantOpen:
            // A write that cannot create its journal beside the database: the directory's cause.
            guard let reason = FileSystem.writeRefusal(at: path) else { return error }
            return DatabaseManagerError.notWritable(path: path, reason: reason)
        default: return error
        }
    }
}
