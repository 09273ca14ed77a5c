import Foundation
import TestSupport
import Testing

/// `cipherdb exec`: SQL from stdin (`-`) and from `--file`, one JSON array per statement, and
/// blobs that cannot be mistaken for text.
@Suite(.ownThread) struct CipherDBExecTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    var unlock: [String] { ["--password-env", "DBPW"] + fast }

    func exec(_ arguments: [String], stdin: String = "") throws -> ProgramResult {
        try cli(["exec", "db.db"] + arguments + unlock, stdin: stdin, environment: ["DBPW": password])
    }

    static let script = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, raw BLOB);
        INSERT INTO t(name, raw) VALUES ('ann', x'00ff'), ('bob', NULL);
        SELECT name, raw FROM t ORDER BY id;
        SELECT count(*) AS n FROM t;
        """

    @Test func sqlFromStdin() throws {
        try cli.createDatabase("SELECT 1")
        let result = try exec(["-"], stdin: Self.script)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout == "name\traw\nann\tx'00ff'\nbob\t\\N\n\nn\n2\n", "\(result.stdout)")
    }

    @Test func sqlFromAFile() throws {
        try cli.createDatabase("SELECT 1")
        try directory.write("migration.sql", Self.script)
        let result = try exec(["--file", "migration.sql"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout == "name\traw\nann\tx'00ff'\nbob\t\\N\n\nn\n2\n", "\(result.stdout)")
    }

    @Test func theSQLComesFromExactlyOnePlace() throws {
        try cli.createDatabase("SELECT 1")
        try directory.write("q.sql", "SELECT 1")
        let both = try exec(["SELECT 2", "--file", "q.sql"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("either the SQL argument or --file PATH"))
        let none = try cli(["exec", "db.db"] + fast, stdin: password + "\n")
        #expect(none.status == 2)
        #expect(none.stderr.contains("exec needs SQL"))
        let missing = try exec(["--file", "nowhere.sql"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Cannot read the SQL file nowhere.sql (--file)"))
        let blank = try exec(["-"], stdin: "  \n")
        #expect(blank.status == 2)
        #expect(blank.stderr.contains("The SQL holds no statement."))
    }

    @Test func pipedSQLNeedsThePasswordFromElsewhere() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let result = try cli(["exec", "db.db", "-"] + fast, stdin: password + "\nINSERT INTO t VALUES (1);\n")
        #expect(result.status == 2)
        #expect(result.stderr.contains("--password-env NAME or --password-file PATH"))
        #expect(try exec(["SELECT count(*) FROM t"]).stdout == "count(*)\n0\n")
    }

    @Test func jsonPrintsOneArrayPerStatementThatReturnsColumns() throws {
        try cli.createDatabase("SELECT 1")
        let result = try exec(["--json", Self.script + "SELECT name FROM t WHERE 0;"])
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.stdout == """
                [
                {"name":"ann","raw":{"base64":"AP8="}},
                {"name":"bob","raw":null}
                ]
                [
                {"n":2}
                ]
                []

                """)
    }

    @Test func jsonOfStatementsWithoutColumnsPrintsNothing() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let result = try exec(["--json", "INSERT INTO t VALUES (1); DELETE FROM t"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.isEmpty)
    }

    /// At a terminal, `-` asks for the password (no echo), then reads SQL up to Ctrl-D.
    @Test func sqlTypedAtATerminalAfterThePassword() throws {
        try cli.createDatabase("CREATE TABLE t(x); INSERT INTO t VALUES ('MARKER')")
        let session = try PseudoTerminalSession("cipherdb", ["exec", "db.db", "-"] + fast, in: directory.url)
        try session.type(password, after: "Password for db.db: ", echo: false)
        // Typed ahead: the terminal keeps the lines until cipherdb reads them after the open.
        session.send("SELECT x FROM t;\n\u{04}")
        #expect(try session.wait() == 0)
        #expect(session.shown.contains("x\r\nMARKER"), "\(session.shown)")
        #expect(!session.shown.contains(password))
    }
}
