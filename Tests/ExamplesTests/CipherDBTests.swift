import Foundation
import TestSupport
import Testing

/// Drives the built cipherdb: create, exec, info, verify, password sources and exit codes.
@Suite(.ownThread) struct CipherDBTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    /// db.db with a table `t` of three rows.
    func createSample() throws {
        try cli.createDatabase(
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, raw BLOB);
            INSERT INTO t(name, score, raw) VALUES ('ann', 1.5, x'00ff'), ('tab\there', NULL, NULL), ('semi;colon', 3, NULL);
            """)
    }

    @Test func createMakesAnEncryptedFile() throws {
        try createSample()
        #expect(directory.exists("db.db"))
        #expect(!directory.isPlaintextSQLite("db.db"))
        #expect(!directory.fileContains("db.db", "semi;colon"))
        let again = try cli(["create", "db.db"] + fast, stdin: password + "\n")
        #expect(again.status == 1)
        #expect(again.stderr.contains("A file already exists"))
    }

    @Test func execPrintsTSVWithOneResultSetPerStatement() throws {
        try createSample()
        let result = try cli(
            ["exec", "db.db", "SELECT name, score, raw FROM t ORDER BY id; SELECT count(*) AS n FROM t"] + fast,
            stdin: password + "\n")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout == "name\tscore\traw\nann\t1.5\tx'00ff'\ntab\\there\t\\N\t\\N\nsemi;colon\t3.0\t\\N\n\nn\n3\n")
    }

    @Test func execPrintsJSON() throws {
        try createSample()
        let result = try cli(
            ["exec", "db.db", "SELECT id, name, score FROM t WHERE id < 3 ORDER BY id", "--json"] + fast,
            stdin: password + "\n")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout == "[\n{\"id\":1,\"name\":\"ann\",\"score\":1.5},\n{\"id\":2,\"name\":\"tab\\there\",\"score\":null}\n]\n")
    }

    @Test func execSplitsStatementsButNotTriggerBodiesQuotesOrComments() throws {
        try createSample()
        let sql = """
            -- a comment; with a semicolon
            CREATE TABLE log(msg TEXT);
            CREATE TRIGGER t_log AFTER INSERT ON t BEGIN
                INSERT INTO log VALUES ('added; ' || new.name);
            END;
            /* block; comment */ INSERT INTO t(name) VALUES ('it''s; fine');
            SELECT msg FROM log;
            -- trailing comment
            """
        let result = try cli(["exec", "db.db", sql] + fast, stdin: password + "\n")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout == "msg\nadded; it's; fine\n")
    }

    /// SQLite's parser decides where a statement ends: a `CASE … END;` that ends a statement
    /// inside a trigger body does not end the `CREATE TRIGGER`.
    @Test func execKeepsATriggerWhoseBodyEndsAStatementWithCaseEnd() throws {
        try createSample()
        let sql = """
            CREATE TABLE grade(name TEXT, label TEXT);
            CREATE TRIGGER t_grade AFTER INSERT ON t BEGIN
                INSERT INTO grade VALUES (new.name, CASE WHEN new.score >= 2 THEN 'pass' ELSE 'fail' END);
                INSERT INTO grade VALUES ('after case', 'end');
            END;
            INSERT INTO t(name, score) VALUES ('dan', 5), ('eve', 1);
            SELECT name, label FROM grade ORDER BY rowid;
            """
        let result = try cli(["exec", "db.db", sql] + fast, stdin: password + "\n")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout == "name\tlabel\ndan\tpass\nafter case\tend\neve\tfail\nafter case\tend\n")
    }

    @Test func execWithoutAStatementIsAUsageError() throws {
        try createSample()
        let blank = try cli(["exec", "db.db", " \n "] + fast)
        #expect(blank.status == 2, "\(blank.output)")
        #expect(blank.stderr.contains("The SQL holds no statement."))
        for json in [[], ["--json"]] {
            let comments = try cli(["exec", "db.db", "-- only; a comment\n;"] + json + fast, stdin: password + "\n")
            #expect(comments.status == 2, "\(comments.output)")
            #expect(comments.stdout.isEmpty)
            #expect(comments.stderr.contains("The SQL holds no statement."))
        }
    }

    @Test func execReportsBadSQLWithExit1() throws {
        try createSample()
        let result = try cli(["exec", "db.db", "SELECT nope FROM t"] + fast, stdin: password + "\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("no such column: nope"))
        #expect(result.stderr.contains("Fix the SQL"))
    }

    @Test func infoWithoutPasswordTellsWhatTheFileIs() throws {
        try createSample()
        let encrypted = try cli(["info", "db.db"])
        #expect(encrypted.status == 0)
        #expect(encrypted.stdout.contains("kind: encrypted SQLCipher database, or not a database"))
        #expect(encrypted.stdout.contains("size: \(directory.bytes("db.db").count) bytes"))
        let missing = try cli(["info", "nothing.db"])
        #expect(missing.status == 5)
        #expect(missing.stdout.contains("kind: missing"))
        try directory.write("empty.db", "")
        #expect(try cli(["info", "empty.db"]).stdout.contains("kind: empty file"))
    }

    @Test func infoWithPasswordShowsSettingsSchemaAndTables() throws {
        try createSample()
        let result = try cli(["info", "db.db", "--password-env", "DBPW"] + fast, environment: ["DBPW": password])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("settings: cipher_page_size="))
        #expect(result.stdout.contains(", kdf_iter=4000, cipher_use_hmac=ON"))
        #expect(result.stdout.contains("schema version: 0"))
        #expect(result.stdout.contains("  t: 3 rows"))
    }

    @Test func verifyChecksPasswordAndIntegrity() throws {
        try createSample()
        let good = try cli(["verify", "db.db"] + fast, stdin: password + "\n")
        #expect(good.status == 0, "\(good.output)")
        #expect(good.stdout == "password: correct\nintegrity: ok\n")
        let wrong = try cli(["verify", "db.db"] + fast, stdin: "wrong\n")
        #expect(wrong.status == 3)
        #expect(wrong.stderr.contains("Incorrect password"))
        let otherSettings = try cli(["verify", "db.db", "--kdf-iter", "5000", "--legacy-kdf"], stdin: password + "\n")
        #expect(otherSettings.status == 3)
    }

    @Test func damagedFileExits4() throws {
        try createSample()
        var bytes = directory.bytes("db.db")
        // Inside page 2 (the table): page 1 decrypts, so the password is proven.
        let page = LinkedFormat.pageSize
        for index in (page + 76)..<(page + 176) { bytes[index] ^= 0xA5 }
        try bytes.write(to: directory.url.appendingPathComponent("db.db"))
        let result = try cli(["verify", "db.db"] + fast, stdin: password + "\n")
        #expect(result.status == 4, "\(result.output)")
        try directory.write("odd.db", String(repeating: "x", count: 1000))
        let odd = try cli(["verify", "odd.db"] + fast, stdin: password + "\n")
        #expect(odd.status == 4, "\(odd.output)")
        #expect(odd.stderr.contains("not an SQLCipher database"))
    }

    @Test func missingFileExits5BeforeAskingForAPassword() throws {
        let result = try cli(["exec", "nothing.db", "SELECT 1"] + fast)
        #expect(result.status == 5)
        #expect(result.stderr.contains("No database file at nothing.db"))
    }
}
