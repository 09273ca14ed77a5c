import SQLCipherCore
import SQLCipherQuery

/// `PRAGMA integrity_check` and `quick_check` on one connection, and the short message a
/// damaged file's error carries (the public ``DatabaseManager/integrityProblems(quick:)``
/// runs it on the open database).
enum IntegrityCheck {
    /// How many integrity problems an error message shows.
    static let summaryLimit = 3

    /// The problems `PRAGMA integrity_check` / `quick_check` reports, one per element: SQLite
    /// may put several lines in one row (after a `*** in database main ***` heading, dropped).
    static func problems(_ connection: Connection, path: String, quick: Bool) throws -> [String] {
        do {
            let rows = try Database(connection: connection).fetchAll(quick ? "PRAGMA quick_check" : "PRAGMA integrity_check")
            return rows.compactMap { $0.value(0, as: String.self) }
                .flatMap { $0.split(separator: "\n").map(String.init) }
                .filter { $0 != "ok" && !$0.hasPrefix("*** in database") }
        } catch let error as SQLiteError where [.corrupt, .notADatabase, .error].contains(error.code) {
            // SQLITE_ERROR from this fixed pragma can only be a page that could not be read
            // (SQLCipher 4 stops the check at a page that fails its HMAC check), the key being proven.
            throw DatabaseManagerError.damagedPage(path: path, after: error)
        }
    }

    /// Throws ``DatabaseManagerError/corrupt(path:underlying:)`` unless `quick_check` finds nothing.
    static func verify(_ connection: Connection, path: String) throws {
        let problems = try problems(connection, path: path, quick: true)
        guard problems.isEmpty else {
            throw DatabaseManagerError.corrupt(
                path: path, underlying: SQLiteError(extendedCode: .corrupt, message: summary(problems)))
        }
    }

    /// The first ``summaryLimit`` problems, then "and N more problems": an error message
    /// stays a few lines long however damaged the file (`quick_check` lists up to 100).
    static func summary(_ problems: [String]) -> String {
        let shown = problems.prefix(summaryLimit).joined(separator: "; ")
        let more = problems.count - summaryLimit
        guard more > 0 else { return shown }
        return shown + "; and \(more) more problem\(more == 1 ? "" : "s") (integrityProblems() lists them all)"
    }
}
