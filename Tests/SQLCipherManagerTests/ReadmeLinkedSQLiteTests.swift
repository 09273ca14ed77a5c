import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// README's "Supported versions" table says what each supported library can and cannot do; each
/// claim is tried here on the library this process runs with.
@Suite struct ReadmeLinkedSQLiteTests {
    /// The two SQLite versions README's table names, with the SQLCipher each comes with.
    private static let modernSQLite = "3.46.1"
    private static let debianSQLite = "3.15.2"

    /// A feature, the words README uses for it, and SQL that runs only where it exists.
    struct Feature: Sendable, CustomStringConvertible {
        let words: String
        let sql: String
        var description: String { words }
    }

    /// In the table's SQLite row for SQLCipher 4.6.1; "none of those" for 3.4.1.
    private static let modern = [
        Feature(words: "UPSERT", sql: "INSERT INTO u VALUES (1, 1) ON CONFLICT(k) DO UPDATE SET v = 2"),
        Feature(words: "`RETURNING`", sql: "INSERT INTO u VALUES (2, 2) RETURNING k"),
        Feature(words: "window functions", sql: "SELECT row_number() OVER (ORDER BY k) FROM u"),
        Feature(words: "`DROP COLUMN`", sql: "ALTER TABLE u DROP COLUMN v"),
        Feature(words: "STRICT tables", sql: "CREATE TABLE s(x INTEGER) STRICT"),
        Feature(words: "JSON (`->`, `->>`)", sql: "SELECT '{\"a\":1}' ->> '$.a'"),
        Feature(words: "FTS5", sql: "CREATE VIRTUAL TABLE f5 USING fts5(x)"),
    ]

    /// In the table's SQLite row for SQLCipher 3.4.1, and on 4.6.1 as well.
    private static let working = [
        Feature(words: "FTS3/4", sql: "CREATE VIRTUAL TABLE f4 USING fts4(x)"),
        Feature(words: "R*Tree", sql: "CREATE VIRTUAL TABLE r USING rtree(id, minX, maxX)"),
        Feature(words: "partial indexes", sql: "CREATE INDEX u_v ON u(v) WHERE v > 0"),
        Feature(
            words: "CTEs",
            sql: "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3) SELECT n FROM c"),
    ]

    private static func readme() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The cells of README's table row that starts with `| name |`.
    private static func row(_ name: String) throws -> [String] {
        let line = try #require(try readme().split(separator: "\n").first { $0.hasPrefix("| \(name) |") }, "no row \(name)")
        return line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
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

    @Test func theREADMENamesTheLinkedLibrariesInOneTable() throws {
        let supported = DocCSamplesTests.section("Supported versions", of: try Self.readme())
        #expect(supported.contains("| | SQLCipher 4.6.1 (the default) | SQLCipher 3.4.1 (`SQLCIPHER=3`) |"))
        #expect(try Self.row("Swift, system").dropFirst().allSatisfy { $0 == "Swift 6.3, Debian 12, x86_64 Linux" })
        // What runs is what DatabaseTools reports, read from the library at run time: one of the two.
        let linked = try #require(DatabaseTools.linkedSQLCipherVersion)
        #expect([SQLCipherVersion(4, 6, 1), SQLCipherVersion(3, 4, 1)].contains(linked), "\(linked)")
        #expect([Self.modernSQLite, Self.debianSQLite].contains(DatabaseTools.linkedSQLiteVersion ?? ""))
        let sqlite = try Self.row("SQLite")
        #expect(sqlite[1].hasPrefix(Self.modernSQLite + ":") && sqlite[2].hasPrefix(Self.debianSQLite + ": none of those"))
        let connection = try Connection(path: ":memory:", mode: .readWriteCreate)
        defer { connection.close() }
        #expect(try connection.text("SELECT sqlite_version()") == DatabaseTools.linkedSQLiteVersion)
    }

    @Test(arguments: modern)
    func theModernFeaturesRunOnTheNewerSQLiteOnly(feature: Feature) throws {
        #expect(try Self.row("SQLite")[1].contains(feature.words))
        let linked = DatabaseTools.linkedSQLiteVersion
        #expect(try Self.runs(feature) == (linked == Self.modernSQLite), "\(feature) on \(linked ?? "?")")
    }

    @Test(arguments: working)
    func whatTheREADMESaysWorksOnBothWorks(feature: Feature) throws {
        #expect(try Self.row("SQLite")[2].contains(feature.words))
        #expect(try Self.runs(feature), "\(feature) does not run")
    }
}
