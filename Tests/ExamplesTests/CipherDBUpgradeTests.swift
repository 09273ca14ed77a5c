import Foundation
import TestSupport
import Testing

/// `cipherdb info` and `cipherdb upgrade` on a file the SQLCipher 3.4.1 shell wrote
/// (`Tests/Fixtures/sqlcipher3-default.sqlcipher`: password "secret", WAL mode, user_version 7,
/// three rows): on SQLCipher 4 it opens with its password only, `info` names its format and
/// the upgrade, `upgrade` rewrites it in the 4.x format and `settings --set-defaults` converts
/// it too; on 3.4.1 it is current, and a SQLCipher 2 file (4,000 iterations) is the one upgraded.
@Suite(.ownThread) struct CipherDBUpgradeTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sqlcipher3-default.sqlcipher")

    func run(_ arguments: [String]) throws -> ProgramResult {
        try cli(arguments + ["--password-env", "DBPW"], environment: ["DBPW": "secret"])
    }

    func installFixture() throws {
        try FileManager.default.copyItem(at: Self.fixture, to: directory.url.appendingPathComponent("old.db"))
    }

    @Test func infoNamesTheFormatAndUpgradeRewritesIt() throws {
        let major = LinkedFormat.major
        try installFixture()
        let info = try run(["info", "old.db"])
        #expect(info.status == 0, "\(info.output)")
        #expect(info.stdout.contains("format: SQLCipher 3 format (1024-byte pages, PBKDF2-HMAC-SHA1 with 64000 iterations, HMAC-SHA1)\n"))
        #expect(info.stdout.contains("schema version: 7\n") && info.stdout.contains("  item: 3 rows\n"), "\(info.stdout)")
        #expect(info.stdout.contains("upgrade: available: `cipherdb upgrade old.db`") == (major >= 4), "\(info.stdout)")
        let before = directory.bytes("old.db")
        let upgrade = try run(["upgrade", "old.db"])
        #expect(upgrade.status == 0, "\(upgrade.output)")
        guard major >= 4 else {
            #expect(upgrade.stdout.contains("old.db is already in the linked SQLCipher's format"), "\(upgrade.stdout)")
            #expect(directory.bytes("old.db") == before)
            return
        }
        #expect(upgrade.stdout.hasPrefix("Upgraded old.db from the SQLCipher 3 format"), "\(upgrade.stdout)")
        #expect(upgrade.stdout.contains("to the SQLCipher 4 format (4096-byte pages, PBKDF2-HMAC-SHA512 with 256000 iterations"))
        let after = try run(["info", "old.db"])
        #expect(after.stdout.contains("format: SQLCipher 4 format") && !after.stdout.contains("upgrade:"), "\(after.stdout)")
        #expect(after.stdout.contains("schema version: 7\n") && after.stdout.contains("  item: 3 rows\n"))
        let rows = try run(["exec", "old.db", "SELECT name FROM item ORDER BY id; PRAGMA journal_mode"])
        #expect(rows.stdout == "name\nv3-0\nv3-1\nv3-2\n\njournal_mode\nwal\n", "\(rows.output)")
        // The upgraded file is SQLCipher 4's: `--compatibility 3` no longer opens it.
        #expect(try run(["verify", "old.db", "--compatibility", "3"]).status == 3)
        #expect(!directory.exists("old.db.scm-upgrade") && !directory.exists("old.db.scm-journal"))
    }

    @Test func settingsSetDefaultsConvertsASQLCipher3File() throws {
        let major = LinkedFormat.major
        try installFixture()
        let convert = try run(["settings", "old.db", "--set-defaults"])
        #expect(convert.status == 0, "\(convert.output)")
        let info = try run(["info", "old.db"])
        #expect(info.stdout.contains("format: SQLCipher \(major) format ("), "\(info.stdout)")
        #expect(info.stdout.contains("  item: 3 rows\n"))
    }

    @Test func aSQLCipher2FileIsUpgradedOnEitherVersion() throws {
        let major = LinkedFormat.major
        let settings = major >= 4 ? ["--compatibility", "2"] : ["--kdf-iter", "4000", "--legacy-kdf"]
        let create = try run(["create", "two.db"] + settings)
        try #require(create.status == 0, "\(create.output)")
        #expect(try run(["exec", "two.db", "CREATE TABLE t(x); INSERT INTO t VALUES (42)"] + settings).status == 0)
        let info = try run(["info", "two.db"] + settings)
        #expect(info.stdout.contains("format: SQLCipher 2 format (1024-byte pages, PBKDF2-HMAC-SHA1 with 4000 iterations"))
        #expect(info.stdout.contains("upgrade: available: `cipherdb upgrade two.db` rewrites it in SQLCipher \(major)'s format"))
        let upgrade = try run(["upgrade", "two.db"] + settings)
        #expect(upgrade.status == 0 && upgrade.stdout.hasPrefix("Upgraded two.db from the SQLCipher 2 format"), "\(upgrade.output)")
        // Now the defaults open it, the old settings do not.
        #expect(try run(["exec", "two.db", "SELECT x FROM t"]).stdout == "x\n42\n")
        #expect(try run(["verify", "two.db"] + settings).status == 3)
    }

    @Test func anotherProgramHoldingTheFileIsNamedAndNothingChanges() throws {
        let settings = LinkedFormat.major >= 4 ? ["--compatibility", "2"] : ["--kdf-iter", "4000", "--legacy-kdf"]
        try #require(try run(["create", "two.db"] + settings).status == 0)
        let before = directory.bytes("two.db")
        let holder = ChildProcess()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 3<\"$0\"; echo open; exec sleep 60", directory.path("two.db")]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        _ = output.fileHandleForReading.availableData
        usleep(100_000)
        let refused = try run(["upgrade", "two.db"] + settings)
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(refused.status == 1, "\(refused.output)")
        #expect(
            refused.stderr.contains("two.db is open in another program (process \(holder.processIdentifier), sleep)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Nothing was changed."))
        #expect(directory.bytes("two.db") == before)
        #expect(try run(["upgrade", "two.db"] + settings).status == 0)
    }
}
