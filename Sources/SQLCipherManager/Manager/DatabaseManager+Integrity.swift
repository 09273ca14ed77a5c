// MARK: - Integrity
import SQLCipherCore
import SQLCipherQuery

extension DatabaseManager {
    /// Checks every page of the open database: `PRAGMA integrity_check` (`quick_check` when
    /// `quick` is set), which with SQLCipher also verifies every page's HMAC.
    ///
    /// - Returns: the problems found, one line each; empty when the database is sound.
    /// - Throws: ``DatabaseManagerError/corrupt(path:underlying:)`` when a page cannot even be
    ///   decrypted (SQLite reports `SQLITE_CORRUPT` instead of a list).
    public func integrityProblems(quick: Bool = false) throws -> [String] {
        try withDatabase { db in
            try Self.integrityProblems(db.connection, path: databasePath ?? "", quick: quick)
        }
    }

    /// The problems `PRAGMA integrity_check` / `quick_check` reports, one per element: SQLite
    /// may put several lines in one row (after a `*** in database main ***` heading, dropped).
    static func integrityProblems(_ connection: Connection, path: String, quick: Bool) throws -> [String] {
        do {
            let rows = try Database(connection: connection).fetchAll(quick ? "PRAGMA quick_check" : "PRAGMA integrity_check")
            return rows.compactMap { $0.value(0, as: String.self) }
                .flatMap { $0.split(separator: "\n").map(String.init) }
                .filter { $0 != "ok" && !$0.hasPrefix("*** in database") }
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
                path: path, underlying: SQLiteError(extendedCode: .corrupt, message: integritySummary(problems)))
        }
    }

    /// The first ``integritySummaryLimit`` problems, then "and N more problems": an error message
    /// stays a few lines long however damaged the file (`quick_check` lists up to 100).
    static func integritySummary(_ problems: [String]) -> String {
        let shown = problems.prefix(integritySummaryLimit).joined(separator: "; ")
        let more = problems.count - integritySummaryLimit
        guard more > 0 else { return shown }
        return shown + "; and \(more) more problem\(more == 1 ? "" : "s") (integrityProblems() lists them all)"
    }

    /// How many integrity problems an error message shows.
    static let integritySummaryLimit = 3
}
