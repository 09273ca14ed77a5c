import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `Database.forEachStatement(in:_:)`: SQLite's parser splits the script, each statement's rows
/// can be read, and a failure stops the script with the failing statement's text.
@Suite struct ScriptStatementTests {
    private func openManager(_ dir: TemporaryDirectory) throws -> DatabaseManager {
        let manager = dir.manager()
        try manager.create(password: "secret")
        return manager
    }

    /// Every statement of `script`: its text, its column names and its rows.
    private func run(_ script: String, in manager: DatabaseManager) throws -> [(sql: String, columns: [String], rows: [Row])] {
        var results: [(sql: String, columns: [String], rows: [Row])] = []
        try manager.withDatabase { db in
            try db.forEachStatement(in: script) { statement in
                var rows: [Row] = []
                try statement.forEachRow { rows.append($0.row) }
                results.append((statement.sql, statement.columnNames, rows))
            }
        }
        return results
    }

    // MARK: - Splitting

    @Test func sqliteDecidesWhereStatementsEnd() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        let trigger = """
            CREATE TRIGGER grade_label AFTER INSERT ON grade BEGIN
                UPDATE grade SET label = CASE WHEN new.score >= 50 THEN 'pass' ELSE 'fail' END;
                INSERT INTO log VALUES ('graded; ' || new.name);
            END;
            """
        let results = try run(
            """
            -- a comment; with a semicolon
            CREATE TABLE grade(name TEXT, score INTEGER, label TEXT); CREATE TABLE log(msg TEXT);
            \(trigger)
            /* block; comment */ INSERT INTO grade(name, score) VALUES ('it''s; ann', 70);
            SELECT name, label, ';' AS "semi;colon" FROM grade;
            SELECT msg FROM log WHERE 0;
            ;  ; -- an empty statement and a trailing comment
            """, in: manager)
        #expect(
            results.map(\.sql) == [
                "-- a comment; with a semicolon\nCREATE TABLE grade(name TEXT, score INTEGER, label TEXT);",
                "CREATE TABLE log(msg TEXT);",
                trigger,
                "/* block; comment */ INSERT INTO grade(name, score) VALUES ('it''s; ann', 70);",
                "SELECT name, label, ';' AS \"semi;colon\" FROM grade;",
                "SELECT msg FROM log WHERE 0;",
            ])
        #expect(results.map(\.columns) == [[], [], [], [], ["name", "label", "semi;colon"], ["msg"]])
        #expect(results[4].rows.map(\.values) == [[.text("it's; ann"), .text("pass"), .text(";")]])
        #expect(results[5].rows.isEmpty)
        #expect(try manager.scalar(String.self, "SELECT msg FROM log") == "graded; it's; ann")
    }

    @Test func scriptsWithoutStatementsCallNothing() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        for script in ["", "  \n", ";;", "-- only a comment", "/* block */ ; -- line"] {
            #expect(try run(script, in: manager).isEmpty, "\(script)")
        }
    }

    @Test func executeScriptUsesTheSameWalker() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.executeScript(
            """
            CREATE TABLE t(x); CREATE TABLE log(kind TEXT);
            CREATE TRIGGER t_log AFTER INSERT ON t BEGIN
                INSERT INTO log VALUES (CASE WHEN new.x > 1 THEN 'big' ELSE 'small' END);
            END;
            INSERT INTO t VALUES (1), (2); -- done;
            """)
        #expect(try manager.fetchAll("SELECT kind FROM log ORDER BY rowid").map { $0[0] } == [.text("small"), .text("big")])
    }

    // MARK: - Running

    @Test func statementsWhoseRowsAreNotReadStillRunOnce() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        var columns: [[String]] = []
        try manager.withDatabase { db in
            try db.forEachStatement(
                in: "CREATE TABLE t(x); INSERT INTO t VALUES (1); SELECT x AS y FROM t; INSERT INTO t SELECT x + 1 FROM t"
            ) {
                columns.append($0.columnNames)
            }
        }
        #expect(columns == [[], [], ["y"], []])
        #expect(try manager.fetchAll("SELECT x FROM t ORDER BY x").map { $0[0] } == [.integer(1), .integer(2)])
    }

    @Test func aStatementRunsOnlyOnceAndOnlyInsideItsClosure() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        var kept: ScriptStatement?
        try manager.withDatabase { db in
            try db.forEachStatement(in: "CREATE TABLE t(x); INSERT INTO t VALUES (1)") { statement in
                try statement.forEachRow { _ in }
                #expect(misuse { try statement.forEachRow { _ in } })
                kept = statement
            }
        }
        #expect(misuse { try kept?.forEachRow { _ in } })
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 1)
    }

    // MARK: - Failures

    @Test func aFailingStatementStopsTheScriptAndIsNamed() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.execute("CREATE TABLE t(x UNIQUE)")
        // A syntax error names the whole statement, not the text up to where SQLite's parser
        // stopped (`SELEC` alone); a `;` inside a string does not end it.
        let cases = [
            ("INSERT INTO missing VALUES (2);", "INSERT INTO missing VALUES (2);", "no such table: missing", ResultCode.error),
            ("INSERT INTO t VALUES (1);", "INSERT INTO t VALUES (1);", "UNIQUE constraint failed: t.x", .constraint),
            ("INSERT INTO t VALUES (2) oops;", "INSERT INTO t VALUES (2) oops;", "near \"oops\": syntax error", .error),
            ("SELEC x, 'a;b' FROM t\n WHERE x = 1;", "SELEC x, 'a;b' FROM t\n WHERE x = 1;", "near \"SELEC\": syntax error", .error),
        ]
        for (failing, named, message, code) in cases {
            try manager.execute("DELETE FROM t")
            var ran: [String] = []
            do {
                try manager.withDatabase { db in
                    try db.forEachStatement(in: "INSERT INTO t VALUES (1);\n\(failing)\nINSERT INTO t VALUES (3);") {
                        ran.append($0.sql)
                    }
                }
                Issue.record("\(failing) should fail")
            } catch let error as SQLiteError {
                #expect(error.sql == named)
                #expect(error.message == message)
                #expect(error.code == code)
            }
            // The body sees a statement that compiled, before it runs; never the one after.
            #expect(ran.first == "INSERT INTO t VALUES (1);" && !ran.contains("INSERT INTO t VALUES (3);"))
            #expect(try manager.fetchAll("SELECT x FROM t").map { $0[0] } == [.integer(1)])
        }
    }

    @Test func aThrowingBodyStopsTheScriptAndReleasesItsRead() throws {
        let dir = TemporaryDirectory()
        let writer = try openManager(dir)
        try writer.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        let reader = dir.manager { $0.busyTimeout = .zero }
        try reader.open(password: "secret")
        #expect(throws: TestFailure.self) {
            try reader.withDatabase { db in
                try db.forEachStatement(in: "SELECT x FROM t; DELETE FROM t") { statement in
                    try statement.forEachRow { _ in throw TestFailure() }
                }
            }
        }
        // Had the reader kept its SHARED lock, this write would fail with SQLITE_BUSY.
        try writer.execute("INSERT INTO t VALUES (4)")
        #expect(try reader.scalar(Int.self, "SELECT count(*) FROM t") == 4)
    }

    private func misuse(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch let error as SQLiteError {
            return error.code == .misuse
        } catch {
            return false
        }
    }

    @Test func aSyntaxErrorShowsTheWholeStatementInItsDescription() throws {
        let dir = TemporaryDirectory()
        let manager = try openManager(dir)
        try manager.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT)")
        let statement = "SELEC id, title FROM note WHERE title = ? ORDER BY id"
        let failures = [
            thrownError { try manager.executeScript("INSERT INTO note(title) VALUES ('a'); \(statement); SELECT 1") },
            thrownError { try manager.execute(statement, "the-bound-value") },
        ]
        for failure in failures {
            let text = "\(failure.map { "\($0)" } ?? "none")"
            #expect(text.contains("while executing `\(statement)"), "\(text)")
            #expect(!text.contains("the-bound-value") && !text.contains("SELECT 1"), "\(text)")
        }
    }
}
