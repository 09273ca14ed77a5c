import Foundation
import TestSupport
import Testing

/// Through cipherdb: a symbolic link planted beside the database, pointing at
/// a file elsewhere in the directory, at a name the command creates or lets SQLite create. The
/// command fails naming the link, the file behind it keeps its bytes, the link stays, and the
/// database still opens with its password.
@Suite(.ownThread) struct CipherDBPlantedLinkTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    static let victimText = Data("not yours to overwrite\n".utf8)

    /// (planted name, the command's arguments after `db.db`).
    static let cases: [(String, [String])] = [
        ("db.db.cipherdb-settings.tmp", ["settings", "db.db", "--set-page-size", "8192"]),
        ("db.db.cipherdb-settings", ["settings", "db.db", "--set-page-size", "8192"]),
        ("db.db.scm-rekey", ["settings", "db.db", "--set-page-size", "8192"]),
        ("db.db.scm-journal.tmp", ["settings", "db.db", "--set-page-size", "8192"]),
        ("db.db.scm-rekeying.tmp", ["rekey", "db.db", "--new-password-env", "NEW"]),
        ("db.db-journal", ["exec", "db.db", "INSERT INTO t VALUES (2)"]),
        ("db.db-wal", ["verify", "db.db"]),
        ("out.db.scm-decrypt", ["decrypt", "db.db", "--to", "out.db"]),
    ]

    @Test("a link planted at a name cipherdb writes stops the command and is left alone", arguments: cases)
    func aPlantedLinkStopsTheCommand(name: String, command: [String]) throws {
        try cli.createDatabase("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        let victim = directory.path("victim")
        try Self.victimText.write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: directory.path(name), withDestinationPath: victim)
        let environment = ["PW": password, "NEW": "new-pass-2"]
        let result = try cli(command + ["--password-env", "PW"] + fast, environment: environment)
        #expect(result.status != 0, "\(name): \(result.output)")
        #expect(result.stderr.contains(name) && result.stderr.contains("refused"), "\(name): \(result.output)")
        #expect(directory.bytes("victim") == Self.victimText, "\(name): the file behind the link changed")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.path(name)) == victim)
        try FileManager.default.removeItem(atPath: directory.path(name))
        let count = try cli(["exec", "db.db", "SELECT count(*) FROM t", "--password-env", "PW"] + fast, environment: environment)
        #expect(count.stdout == "count(*)\n1\n", "\(name): \(count.output)")
        #expect(!directory.exists("out.db"))
    }
}
