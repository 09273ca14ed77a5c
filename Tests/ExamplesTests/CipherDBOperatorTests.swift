import Foundation
import SQLCipherManager
import TestSupport
import Testing

/// cipherdb as an operator meets it: `--version`, options before the command, paths shown as
/// typed, and messages that name commands and options, never the library's API.
@Suite(.ownThread) struct CipherDBOperatorTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    /// Words of the library's API that an operator message must never contain.
    static let libraryWords = [
        "DatabaseManager", "CipherOptions", "DatabaseConfiguration", "busyTimeout",
        "databaseURL", "adoptsPlaintextDatabase", "encryptPlaintextDatabase", "DatabaseTools",
    ]

    @Test func versionNamesOursAndTheLinkedSQLCipherAndSQLite() throws {
        try cli.createDatabase("SELECT 1")
        let linked = try cli(
            ["exec", "db.db", "SELECT sqlite_version() AS s; PRAGMA cipher_version"] + fast,
            stdin: password + "\n")
        let lines = linked.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(linked.output)")
        for spelling in ["--version", "-V", "version"] {
            let version = try cli([spelling])
            #expect(version.status == 0)
            let shown = version.stdout.split(separator: "\n").map(String.init)
            #expect(shown.count == 3, "\(version.stdout)")
            #expect(shown.first == "cipherdb \(DatabaseTools.packageVersion) (SQLCipherManager)", "\(version.stdout)")
            #expect(shown.contains("SQLite \(lines[1])"), "\(version.stdout)")
            #expect(
                shown.contains { lines[3].hasPrefix($0.replacingOccurrences(of: "SQLCipher ", with: "")) && $0.hasPrefix("SQLCipher ") },
                "\(version.stdout) vs \(lines[3])")
        }
    }

    @Test func optionsMayComeBeforeTheCommand() throws {
        try cli.createDatabase("CREATE TABLE t(x); INSERT INTO t VALUES ('MARKER')")
        let environment = ["DBPW": password]
        let verify = try cli(["--password-env", "DBPW"] + fast + ["verify", "db.db"], environment: environment)
        #expect(verify.status == 0, "\(verify.output)")
        let exec = try cli(
            ["--json", "--password-env=DBPW", "exec", "db.db", "SELECT x FROM t"] + fast,
            environment: environment)
        #expect(exec.stdout == "[\n{\"x\":\"MARKER\"}\n]\n", "\(exec.output)")
        let misplaced = try cli(["--to", "out.db", "verify", "db.db"], environment: environment)
        #expect(misplaced.status == 2)
        #expect(misplaced.stderr.contains("--to does not apply to `cipherdb verify`"))
    }

    @Test func pathsAreShownAsGivenAndMessagesNameNoLibraryAPI() throws {
        try FileManager.default.createDirectory(atPath: directory.path("sub"), withIntermediateDirectories: true)
        let create = try cli(["create", "sub/db.db"] + fast, stdin: password + "\n")
        try #require(create.status == 0, "\(create.output)")
        let plainSQL = "CREATE TABLE p(x); INSERT INTO p VALUES (1);"
        let shell = try SQLCipherShell.require()
        try #require(try SQLCipherShell.run(shell, directory.path("sub/plain.db"), plainSQL + "\n").status == 0)
        let failures: [(arguments: [String], stdin: String, code: Int32, shows: String)] = [
            (["verify", "sub/db.db"] + fast, "wrong-password\n", 3, "Incorrect password for sub/db.db"),
            (["verify", "sub/db.db"], password + "\n", 3, "The password is right; sub/db.db uses kdf_iter 4000"),
            (["create", "sub/db.db"] + fast, password + "\n", 1, "A file already exists at sub/db.db"),
            (
                ["exec", "sub/plain.db", "SELECT 1"] + fast, password + "\n", 6,
                "sub/plain.db is a plaintext (unencrypted) SQLite database. Encrypt it first: cipherdb encrypt sub/plain.db"
            ),
            (["decrypt", "sub/db.db", "--to", "sub/db.db"] + fast, password + "\n", 1, "A file already exists at sub/db.db"),
            (["exec", "sub/none.db", "SELECT 1"], "", 5, "No database file at sub/none.db"),
            (["create", "sub/odd.db", "--page-size", "1000"], password + "\n", 2, "--page-size"),
            // 3.x has no cipher_compatibility at all; 4.x knows formats 1 to 4.
            (
                ["create", "sub/new.db", "--compatibility", LinkedFormat.isSQLCipher4 ? "5" : "3"] + fast, password + "\n", 2,
                "--compatibility"
            ),
        ]
        for failure in failures {
            let result = try cli(failure.arguments, stdin: failure.stdin)
            #expect(result.status == failure.code, "\(failure.arguments): \(result.output)")
            #expect(result.stderr.contains(failure.shows), "\(failure.arguments): \(result.stderr)")
            #expect(!result.stderr.contains(directory.url.path), "an absolute path: \(result.stderr)")
            for word in Self.libraryWords {
                #expect(!result.stderr.contains(word), "\(failure.arguments) names \(word): \(result.stderr)")
            }
        }
        #expect(!directory.exists("sub/odd.db") && !directory.exists("sub/new.db"))
    }

    @Test func helpListsTheNewOptionsAndTheVersion() throws {
        let help = try cli(["--help"])
        for text in [
            "--no-hmac", "--compatibility N", "--set-defaults", "--file PATH", "--version",
            "exec DB [SQL]", "cipherdb [OPTIONS] COMMAND",
        ] {
            #expect(help.stdout.contains(text), "missing: \(text)")
        }
    }
}
