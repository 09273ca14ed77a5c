// MARK: - Integrity

extension DatabaseManager {
    /// Checks every page of the open database: `PRAGMA integrity_check` (`quick_check` when
    /// `quick` is set), which with SQLCipher also verifies every page's HMAC.
    ///
    /// - Returns: the problems found; empty when the database is sound.
    /// - Throws: ``DatabaseManagerError/corrupt(path:underlying:)`` when a page cannot even be
    ///   decrypted (SQLite reports `SQLITE_CORRUPT` instead of a list).
    public func integrityProblems(quick: Bool = false) throws -> [String] {
        try withDatabase { db in
            try Self.integrityProblems(db.connection, path: databasePath ?? "", quick: quick)
        }
    }

    /// The rows of `PRAGMA integrity_check` / `quick_check` other than `ok`.
    static func integrityProblems(_ connection: Connection, path: String, quick: Bool) throws -> [String] {
        do {
            let rows = try Database(connection: connection).fetchAll(quick ? "PRAGMA quick_check" : "PRAGMA integrity_check")
            return rows.compactMap { $0.value(0, as: String.self) }.filter { $0 != "ok" }
        } catch let error as SQLiteError where [.corrupt, .notADatabase, .error].contains(error.code) {
            // SQLITE_ERROR from this fixed pragma can only be a page that could not be read.
            throw DatabaseManagerError.corrupt(path: path, underlying: error)
        }
    }

    /// Throws ``DatabaseManagerError/corrupt(path:underlying:)`` unless `quick_check` finds nothing.
    static func checkIntegrity(_ connection: Connection, path: String) throws {
        let problems = try integrityProblems(connection, path: path, quick: true)
        guard problems.isEmpty else {
            throw DatabaseManagerError.corrupt(
                path: path, underlying: SQLiteError(extendedCode: .corrupt, message: problems.prefix(3).joined(separator: "; ")))
        }
    }
}
