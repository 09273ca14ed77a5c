import Foundation
import TestSupport
import Testing

/// `cipherdb backup DB --to PATH`, end to end.
@Suite(.ownThread) struct CipherDBBackupTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    func names(_ file: String, password: String) throws -> ProgramResult {
        try cli(["exec", file, "SELECT name FROM t ORDER BY name"] + fast, stdin: password + "\n")
    }

    @Test func backupWithTheSameAndWithANewPassword() throws {
        try cli.createDatabase("CREATE TABLE t(name TEXT); INSERT INTO t VALUES ('MARKER-1'), ('MARKER-2')")
        let same = try cli(["backup", "db.db", "--to", "copy.db"] + fast, stdin: password + "\n")
        #expect(same.status == 0, "\(same.output)")
        #expect(same.stdout.contains("Wrote a verified backup of db.db to copy.db"), "\(same.output)")
        #expect(try names("copy.db", password: password).stdout == "name\nMARKER-1\nMARKER-2\n")

        let renamed = try cli(
            ["backup", "db.db", "--to", "other.db", "--new-password-env", "NEWPW"] + fast, stdin: password + "\n",
            environment: ["NEWPW": "backup-pass-1"])
        #expect(renamed.status == 0, "\(renamed.output)")
        #expect(try names("other.db", password: "backup-pass-1").stdout.contains("MARKER-2"))
        #expect(try names("other.db", password: password).status == 3)
        #expect(!directory.exists("copy.db.scm-backup") && !directory.exists("copy.db.scm-journal"))
    }

    @Test func backupRefusesAnExistingDestinationAMissingToAndAKeySlotDatabaseWithoutANewKey() throws {
        try cli.createDatabase("CREATE TABLE t(name TEXT)")
        try Data("taken".utf8).write(to: directory.url.appendingPathComponent("taken.db"))
        let taken = try cli(["backup", "db.db", "--to", "taken.db"] + fast, stdin: password + "\n")
        #expect(taken.status != 0 && taken.stderr.contains("taken.db"), "\(taken.output)")
        #expect(directory.bytes("taken.db") == Data("taken".utf8))
        let noTo = try cli(["backup", "db.db"] + fast, stdin: password + "\n")
        #expect(noTo.status == 2 && noTo.stderr.contains("--to PATH"), "\(noTo.output)")

        #expect(try cli(["keys", "slots.db", "create"] + fast, stdin: "slot-pass-1\n").status == 0)
        let slots = try cli(["backup", "slots.db", "--to", "slots-copy.db"] + fast, stdin: "slot-pass-1\n")
        #expect(slots.status == 2 && slots.stderr.contains("--new-password-env"), "\(slots.output)")
        #expect(!directory.exists("slots-copy.db"))
        let own = try cli(
            ["backup", "slots.db", "--to", "slots-copy.db", "--new-password-env", "NEWPW"] + fast, stdin: "slot-pass-1\n",
            environment: ["NEWPW": "own-pass-1"])
        #expect(own.status == 0, "\(own.output)")
        #expect(!directory.exists("slots-copy.db.scm-keys"))
        #expect(try cli(["verify", "slots-copy.db"] + fast, stdin: "own-pass-1\n").status == 0)
    }

    @Test func helpDescribesBackup() throws {
        let help = try cli(["backup", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: cipherdb backup DB"), "\(help.output)")
        #expect(help.stdout.contains("--new-password-file PATH"))
        #expect(try cli(["--help"]).stdout.contains("backup DB"))
    }
}
