// MARK: - Diagnosis after the fact

extension DatabaseManagerError {
    /// A failed unlock of a file smaller than one page of the settings tried (`pageSize`), and
    /// smaller than 1024 bytes (the least any SQLCipher writes by default), is not a wrong
    /// password: the file is truncated (or was written with a smaller page size). A larger file
    /// may simply use smaller pages than the ones tried: that stays "other settings".
    /// A wrong raw key (`rawKey`) is ``DatabaseManagerError/incorrectKeyOrSettings(path:)``.
    package func refinedUnlockFailure(path: String, pageSize: Int, rawKey: Bool = false) -> DatabaseManagerError {
        guard case .incorrectPasswordOrSettings = self, let size = DatabaseFile(path: path).size else { return self }
        guard size < min(pageSize, 1024) else { return rawKey ? .incorrectKeyOrSettings(path: path) : self }
        return .notADatabase(
            path: path,
            reason: "it is only \(size) bytes, less than one \(pageSize)-byte page, so it is "
                + "truncated (or was written with a smaller page size)")
    }

    /// A statement's failure that is about the file, not the SQL, said like the same error at
    /// open: `SQLITE_CORRUPT` → ``DatabaseManagerError/corrupt(path:underlying:)``,
    /// `SQLITE_NOTADB` (page 1 no longer decrypts with this connection's key: another program
    /// re-keyed the file in place) → ``DatabaseManagerError/keyChanged(path:)``, `SQLITE_BUSY` and `SQLITE_LOCKED` →
    /// ``DatabaseManagerError/busy(path:underlying:)``, each with the path and the SQLite error.
    /// Any other error is returned as it is.
    package static func translatingQueryError(_ error: any Error, path: String) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        switch error.code {
        case .corrupt: return DatabaseManagerError.corrupt(path: path, underlying: error)
        case .notADatabase: return DatabaseManagerError.keyChanged(path: path)
        case .busy, .locked: return DatabaseManagerError.busy(path: path, underlying: error)
        default: return error
        }
    }
}
