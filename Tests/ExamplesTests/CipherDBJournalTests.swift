import Foundation
import TestSupport
import Testing

/// `cipherdb verify` (and every command, through its recovery step) after a crash in the middle
/// of a write: a `-journal` whose header SQLite never wrote is removed, and the command says so;
/// a hot one is left to SQLite, which rolls it back when the database opens. The crash states
/// are made by SQLite itself: the `sqlcipher` shell copies the files inside an open transaction.
@Suite(.ownThread) struct CipherDBJournalTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    static let journalMagic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]

    /// `db.db` (3 rows, keyed with `db.key`), and the database and journal copied inside a
    /// transaction that adds rows, into `crash.db` and `crash.journal`; with `spill`, enough rows
    /// for a two-page cache to spill (SQLite syncs the journal's header, then writes the database).
    func crashState(spill: Bool) throws {
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let hex = key.map { String(format: "%02x", $0) }.joined()
        try directory.writeSecret("db.key", Data((hex + "\n").utf8))
        #expect(try cli(["create", "db.db", "--key-file", "db.key"]).status == 0)
        let fill = try cli(["exec", "db.db", "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)", "--key-file", "db.key"])
        try #require(fill.status == 0, "\(fill.output)")
        let db = directory.path("db.db")
        let script = """
            PRAGMA key = "x'\(hex)'";
            \(spill ? "PRAGMA cache_size = 2;" : "")
            BEGIN;
            WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < \(spill ? 300 : 1))
            INSERT INTO t SELECT randomblob(3000) FROM c;
            .shell cp '\(db)' '\(directory.path("crash.db"))' && cp '\(db)-journal' '\(directory.path("crash.journal"))'
            ROLLBACK;

            """
        let shell = try SQLCipherShell.run(SQLCipherShell.require(), db, script)
        try #require(shell.status == 0 && directory.exists("crash.journal"), "\(shell.stdout)\(shell.stderr)")
        try FileManager.default.removeItem(atPath: db)
        try FileManager.default.moveItem(atPath: directory.path("crash.db"), toPath: db)
        try FileManager.default.moveItem(atPath: directory.path("crash.journal"), toPath: db + "-journal")
    }

    func rowCount() throws -> String {
        try cli(["exec", "db.db", "SELECT count(*) AS n FROM t", "--key-file", "db.key"]).stdout
    }

    @Test func verifyRemovesAJournalWhoseHeaderWasNeverWritten() throws {
        try crashState(spill: false)
        let journal = directory.bytes("db.db-journal")
        try #require(journal.count > 512 && journal.prefix(12).allSatisfy { $0 == 0 }, "SQLite's unsynced header")
        let verify = try cli(["verify", "db.db", "--key-file", "db.key"])
        #expect(verify.status == 0 && verify.stdout.contains("integrity: ok"), "\(verify.output)")
        #expect(
            verify.stderr.contains("removed db.db-journal, a rollback journal whose header SQLite never wrote")
                && verify.stderr.contains("while holding SQLite's write lock on db.db"), "\(verify.output)")
        #expect(!directory.exists("db.db-journal"))
        #expect(try rowCount() == "n\n3\n")
    }

    @Test func verifyLeavesAHotJournalToSQLitesRollback() throws {
        try crashState(spill: true)
        try #require(Array(directory.bytes("db.db-journal").prefix(8)) == Self.journalMagic, "a spill syncs the header")
        let verify = try cli(["verify", "db.db", "--key-file", "db.key"])
        #expect(verify.status == 0 && verify.stdout.contains("integrity: ok"), "\(verify.output)")
        #expect(verify.stderr.contains("db.db-journal is hot"), "\(verify.output)")
        #expect(!verify.stderr.contains("removed db.db-journal"), "\(verify.output)")
        #expect(!directory.exists("db.db-journal"), "SQLite rolled it back and removed it")
        #expect(try rowCount() == "n\n3\n")
    }
}
