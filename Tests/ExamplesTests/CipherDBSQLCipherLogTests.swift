import Foundation
import SQLCipherManager
import TestSupport
import Testing

/// cipherdb prints no line of SQLCipher's own log unless asked (`--sqlcipher-log`): not for a
/// wrong password, a damaged page or a settings diagnosis.
@Suite(.ownThread) struct CipherDBSQLCipherLogTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    /// Words only SQLCipher's log lines contain.
    static let logWords = ["ERROR CORE", "sqlcipher_", "sqlite3Codec", "hmac check failed"]

    /// SQLCipher 4.6 and later log a failed page decrypt (cipherdb links the tests' SQLCipher).
    func logsFailedDecrypts() -> Bool {
        (DatabaseTools.linkedSQLCipherVersion ?? SQLCipherVersion(0, 0)) >= SQLCipherVersion(4, 6)
    }

    @Test func aNewcomersFailuresShowNoSQLCipherLogLine() throws {
        try cli.createDatabase("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        try TemplateDatabase.write(cli, "damaged.db") { data in data[6 * 1024 + 200] ^= 0x01 }
        let runs = [
            try cli(["verify", "db.db"] + fast, stdin: "wrong-password\n"),
            try cli(["verify", "db.db"], stdin: password + "\n"),
            try cli(["exec", "damaged.db", "SELECT sum(length(name)) FROM t"] + fast, stdin: password + "\n"),
        ]
        for run in runs {
            #expect(run.status != 0, "\(run.output)")
            #expect(!Self.logWords.contains { run.stderr.contains($0) }, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("cipherdb: "), "\(run.stderr)")
        }
    }

    @Test func sqlcipherLogStderrShowsTheLinesWhereSQLCipherHasThem() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let run = try cli(["--sqlcipher-log", "stderr", "verify", "db.db"] + fast, stdin: "wrong-password\n")
        #expect(run.status == 3, "\(run.output)")
        #expect(run.stderr.contains("hmac check failed") == logsFailedDecrypts(), "\(run.stderr)")
        #expect(run.stderr.contains("cipherdb: error: Incorrect password"), "\(run.stderr)")
    }

    @Test func sqlcipherLogToAFileKeepsTheTerminalClean() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let run = try cli(
            ["verify", "db.db", "--sqlcipher-log", "sqlcipher.log", "--sqlcipher-log-level", "error"] + fast,
            stdin: "wrong-password\n")
        #expect(run.status == 3, "\(run.output)")
        #expect(!Self.logWords.contains { run.stderr.contains($0) }, "\(run.stderr)")
        let logged = (try? String(contentsOfFile: directory.path("sqlcipher.log"), encoding: .utf8)) ?? ""
        #expect(logged.contains("hmac check failed") == logsFailedDecrypts(), "\(logged)")
    }

    @Test func aLevelWithoutATargetOrAnUnknownLevelIsAUsageError() throws {
        let bare = try cli(["--sqlcipher-log-level", "warn", "verify", "db.db"])
        #expect(bare.status == 2)
        #expect(bare.stderr.contains("--sqlcipher-log-level needs --sqlcipher-log TARGET"), "\(bare.stderr)")
        let unknown = try cli(["--sqlcipher-log", "stderr", "--sqlcipher-log-level", "loud", "verify", "db.db"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("error, warn, info, debug, trace"), "\(unknown.stderr)")
    }
}
