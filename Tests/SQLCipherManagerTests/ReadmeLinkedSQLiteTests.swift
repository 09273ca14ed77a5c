import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// README's "Which SQLite" section says what the linked library can and cannot do; each claim
/// is tried here on the library this process runs with (issue 22, item 9).
@Suite struct ReadmeLinkedSQLiteTests {
    /// Debian 12's SQLCipher and the SQLite it is built on, as README names them.
    private static let debianCipher = SQLCipherVersion(3, 4, 1)
    private static let debianSQLite = "3.15.2"

    /// A feature, the words README uses for it, and SQL that runs only where it exists.
    struct Feature: Sendable, CustomStringConvertible {
        let words: String
        let sql: String
        var description: String { words }
    }

    private static let missing = [
        Feature(words: "UPSERT", sql: "INSERT INTO u VALUES (1, 1) ON CONFLICT(k) DO UPDATE SET v = 2"),
        Feature(words: "`RETURNING`", sql: "INSERT INTO u VALUES (2, 2) RETURNING k"),
        Feature(words: "window functions", sql: "SELECT row_number() OVER (ORDER BY k) FROM u"),
        Feature(words: "RENAME COLUMN", sql: "ALTER TABLE u RENAME COLUMN v TO w"),
        Feature(words: "DROP COLUMN", sql: "ALTER TABLE u DROP COLUMN v"),
        Feature(words: "`VACUUM INTO`", sql: "VACUUM INTO ?"),
        Feature(words: "JSON functions", sql: "SELECT json_valid('{}')"),
        Feature(words: "FTS5", sql: "CREATE VIRTUAL TABLE f5 USING fts5(x)"),
    ]

    private static let working = [
        Feature(words: "FTS3", sql: "CREATE VIRTUAL TABLE f3 USING fts3(x)"),
        Feature(words: "FTS4", sql: "CREATE VIRTUAL TABLE f4 USING fts4(x)"),
        Feature(words: "R*Tree", sql: "CREATE VIRTUAL TABLE r USING rtree(id, minX, maxX)"),
        Feature(words: "partial indexes", sql: "CREATE INDEX u_v ON u(v) WHERE v > 0"),
        Feature(
            words: "common table expressions",
            sql: "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3) SELECT n FROM c"),
        Feature(words: "`WITHOUT ROWID`", sql: "CREATE TABLE w(k PRIMARY KEY) WITHOUT ROWID"),
    ]

    private static func readme() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// README's list item that starts with `prefix`, its wrapped lines joined by spaces.
    private static func line(_ prefix: String) throws -> String {
        let lines = try readme().split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix(prefix) }, "README has no line \(prefix)")
        let rest = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
        return ([lines[start]] + rest).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// `true` when `feature.sql` runs on a fresh in-memory database of the linked library.
    private static func runs(_ feature: Feature) throws -> Bool {
        let dir = TemporaryDirectory()
        let connection = try Connection(path: ":memory:", mode: .readWriteCreate)
        defer { connection.close() }
        let db = Database(connection: connection)
        try db.execute("CREATE TABLE u(k PRIMARY KEY, v)")
        do {
            if feature.sql.contains("?") {
                try db.execute(feature.sql, dir.file("copy.db").path)
            } else {
                _ = try db.fetchAll(feature.sql)
            }
            return true
        } catch is SQLiteError {
            return false
        }
    }

    @Test func theREADMENamesTheLinkedLibrariesUpFront() throws {
        let intro = try Self.readme().components(separatedBy: "\n## ")[0]
        #expect(intro.contains("SQLCipher \(Self.debianCipher) on SQLite \(Self.debianSQLite)"))
        #expect(intro.contains("SQLCipher 4"))
        // What runs is what DatabaseTools reports, read from the library at run time.
        let linked = try #require(DatabaseTools.linkedSQLCipherVersion)
        #expect(linked >= Self.debianCipher)
        let connection = try Connection(path: ":memory:", mode: .readWriteCreate)
        defer { connection.close() }
        #expect(try connection.text("SELECT sqlite_version()") == DatabaseTools.linkedSQLiteVersion)
    }

    @Test(arguments: missing)
    func whatTheREADMESaysIsMissingIsMissingOnDebiansLibrary(feature: Feature) throws {
        #expect(try Self.line("- Missing on SQLite \(Self.debianSQLite):").contains(feature.words))
        guard DatabaseTools.linkedSQLiteVersion == Self.debianSQLite else { return }
        #expect(try !Self.runs(feature), "\(feature) runs on \(Self.debianSQLite)")
    }

    @Test(arguments: working)
    func whatTheREADMESaysWorksWorks(feature: Feature) throws {
        #expect(try Self.line("- Working on SQLite \(Self.debianSQLite):").contains(feature.words))
        #expect(try Self.runs(feature), "\(feature) does not run")
    }
}
