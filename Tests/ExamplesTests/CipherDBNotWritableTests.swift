import Foundation
import TestSupport
import Testing

/// `cipherdb exec` on a database that cannot be written says so, and why, instead of SQLite's
/// "attempt to write a readonly database … Fix the SQL and run it again".
@Suite(.ownThread) struct CipherDBNotWritableTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    /// `chattr +i` works here: root (whom no mode bit stops) on a file system with the flag.
    static let canSetImmutable: Bool = {
        guard getuid() == 0, let probe = try? CipherDBFixture() else { return false }
        let path = probe.directory.path("probe")
        guard FileManager.default.createFile(atPath: path, contents: Data()) else { return false }
        guard (try? Program.runBash("chattr +i probe", in: probe.directory.url).0) == 0 else { return false }
        defer { _ = try? Program.runBash("chattr -i probe", in: probe.directory.url) }
        return access(path, W_OK) != 0
    }()

    @Test(.enabled(if: canSetImmutable, "needs chattr +i: root, on a file system with the immutable flag"))
    func execOnAnImmutableDatabaseSaysItCannotBeWritten() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let before = directory.bytes("db.db")
        let (status, output) = try Program.runBash("chattr +i db.db", in: directory.url)
        try #require(status == 0, "\(output)")
        defer { _ = try? Program.runBash("chattr -i db.db", in: directory.url) }
        let read = try cli(["exec", "db.db", "SELECT count(*) AS n FROM t"] + fast, stdin: password + "\n")
        #expect(read.status == 0 && read.stdout == "n\n0\n", "\(read.output)")
        let write = try cli(["exec", "db.db", "INSERT INTO t VALUES (1)"] + fast, stdin: password + "\n")
        #expect(write.status == 1, "\(write.output)")
        #expect(
            write.stderr.contains("db.db cannot be written: ") && write.stderr.contains("has the immutable flag (chattr +i)")
                && write.stderr.contains("chattr -i"), "\(write.output)")
        #expect(!write.stderr.contains("Fix the SQL") && !write.stderr.contains("readonly database"), "\(write.output)")
        #expect(directory.bytes("db.db") == before)
    }
}
