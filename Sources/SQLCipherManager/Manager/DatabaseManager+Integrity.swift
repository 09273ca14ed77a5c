// MARK: - Integrity
import SQLCipherCore

extension DatabaseManager {
    /// Checks every page of the open database: `PRAGMA integrity_check` (`quick_check` when
    /// `quick` is set), which with SQLCipher also verifies every page's HMAC.
    ///
    /// - Returns: the problems found, one line each; empty when the database is sound.
    /// - Throws: ``DatabaseManagerError/corrupt(path:underlying:)`` when a page cannot even be
    ///   decrypted (SQLite reports `SQLITE_CORRUPT` instead of a list).
    public func integrityProblems(quick: Bool = false) throws -> [String] {
        try withDatabase { db in
            try IntegrityCheck.problems(db.connection, path: databasePath ?? "", quick: quick)
        }
    }
}
