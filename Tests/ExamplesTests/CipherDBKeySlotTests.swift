import Foundation
import TestSupport
import Testing

/// `cipherdb keys` and `cipherdb export-key` end to end, and the exported key in the Debian
/// `sqlcipher` shell. The CLI uses the library's default Argon2id (about 0.25 s a slot).
@Suite(.ownThread) struct CipherDBKeySlotTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    /// Removing a slot leaves the data key as it was: the command says that an old copy of the
    /// slot file still opens the database with the removed password, and names the command that
    /// revokes it, which then runs as written.
    @Test func removePasswordWarnsThatAnOldSlotFileStillOpensAndNamesTheRotation() throws {
        let create = try cli(["keys", "db.db", "create"] + fast, stdin: "first-pass\n")
        try #require(create.status == 0, "\(create.output)")
        let add = try cli(["keys", "db.db", "add-password"] + fast, stdin: "first-pass\nsecond-pass\n")
        try #require(add.status == 0, "\(add.output)")
        let remove = try cli(["keys", "db.db", "remove-password", "2"] + fast, stdin: "first-pass\n")
        #expect(remove.status == 0, "\(remove.output)")
        #expect(remove.stdout.contains("Removed key slot 2."), "\(remove.output)")
        #expect(remove.stderr.contains("warning: the data key is unchanged"), "\(remove.output)")
        #expect(
            remove.stderr.contains("A copy of the old key-slot file (db.db.scm-keys in a backup, a synced folder")
                && remove.stderr.contains("still opens the database with the removed password"), "\(remove.output)")
        let command = try #require(remove.stderr.split(separator: "`").dropFirst().first, "\(remove.output)")
        #expect(command == "cipherdb keys db.db rotate", "\(remove.output)")
        let words = command.split(separator: " ").dropFirst().map(String.init)
        let rotate = try cli(words + fast, stdin: "first-pass\n")
        #expect(rotate.status == 0 && rotate.stdout.contains("new data key"), "\(rotate.output)")
    }

    @Test func keysCreateAddChangeRemoveRecoverRotateAndExport() throws {
        let create = try cli(["keys", "db.db", "create"] + fast, stdin: "first-pass\n")
        try #require(create.status == 0, "\(create.output)")
        #expect(directory.exists("db.db.scm-keys"))
        let fill = try cli(["exec", "db.db", "CREATE TABLE t(x); INSERT INTO t VALUES (42)"] + fast, stdin: "first-pass\n")
        #expect(fill.status == 0, "\(fill.output)")
        let add = try cli(["keys", "db.db", "add-password"] + fast, stdin: "first-pass\nsecond-pass\n")
        #expect(add.status == 0 && add.stdout.contains("slot 2: password"), "\(add.output)")
        let change = try cli(["keys", "db.db", "change-password"] + fast, stdin: "first-pass\nthird-pass\n")
        #expect(change.status == 0, "\(change.output)")
        let wrong = try cli(["exec", "db.db", "SELECT x FROM t"] + fast, stdin: "first-pass\n")
        #expect(wrong.status == 3 && !wrong.stderr.contains("--kdf-iter"), "\(wrong.output)")
        let remove = try cli(["keys", "db.db", "remove-password", "2"] + fast, stdin: "third-pass\n")
        #expect(remove.status == 0, "\(remove.output)")
        let recovery = try cli(["keys", "db.db", "add-recovery"] + fast, stdin: "third-pass\n")
        let recoveryKey = recovery.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(recovery.status == 0 && recoveryKey.split(separator: "-").count == 8, "\(recovery.output)")
        let rotate = try cli(["keys", "db.db", "rotate"] + fast, stdin: "third-pass\n")
        #expect(rotate.status == 0, "\(rotate.output)")
        let list = try cli(["keys", "db.db", "list"] + fast)
        #expect(list.stdout.contains("slot 1: password") && list.stdout.contains("slot 3: recovery"), "\(list.output)")
        #expect(!list.stdout.contains("slot 2"))
        let byRecovery = try cli(["exec", "db.db", "SELECT x FROM t"] + fast, stdin: recoveryKey + "\n")
        #expect(byRecovery.stdout == "x\n42\n", "\(byRecovery.output)")
        let export = try cli(["export-key", "db.db"] + fast, stdin: "third-pass\n")
        #expect(export.status == 0, "\(export.output)")
        let pragma = export.stdout.trimmingCharacters(in: .newlines)
        #expect(pragma.hasPrefix("PRAGMA key = \"x'") && pragma.count == "PRAGMA key = \"x'\"';".count + 64, "\(pragma)")
        let shell = try Program.runBash(
            "printf '%s\\nSELECT x FROM t;\\n' \"$PRAGMA\" | \"$SHELL_PATH\" -batch -bail -init /dev/null db.db",
            in: directory.url, environment: ["PRAGMA": pragma, "SHELL_PATH": try SQLCipherShell.require().path, "PATH": "/usr/bin:/bin"])
        #expect(shell.0 == 0 && shell.1.contains("42"), "\(shell.1)")
    }

    @Test func keysRefusesWhatItCannotDo() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let list = try cli(["keys", "db.db", "list"] + fast)
        #expect(list.status == 6 && list.stderr.contains("keys db.db convert"), "\(list.output)")
        let unknown = try cli(["keys", "db.db", "explode"] + fast)
        #expect(unknown.status == 2, "\(unknown.output)")
        let convert = try cli(["keys", "db.db", "convert"] + fast, stdin: password + "\n")
        #expect(convert.status == 0, "\(convert.output)")
        let rekey = try cli(["rekey", "db.db"] + fast, stdin: password + "\nother-pass\n")
        #expect(rekey.status != 0, "\(rekey.output)")
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent("db.db.scm-keys"))
        let missing = try cli(["keys", "db.db", "list"] + fast)
        #expect(missing.status == 4 && missing.stderr.contains("backup"), "\(missing.output)")
    }

    /// An old slot file put back after change-password is refused, a garbage `.next`
    /// does not block, a FIFO slot file is named (not "Permission denied") without blocking.
    @Test func keysRefusesOldAndPlantedSlotFiles() throws {
        let create = try cli(["keys", "db.db", "create"] + fast, stdin: "first-pass\n")
        try #require(create.status == 0, "\(create.output)")
        let slots = directory.url.appendingPathComponent("db.db.scm-keys")
        let old = try Data(contentsOf: slots)
        let change = try cli(["keys", "db.db", "change-password"] + fast, stdin: "first-pass\nsecond-pass\n")
        #expect(change.status == 0, "\(change.output)")
        let current = try Data(contentsOf: slots)
        try old.write(to: slots)
        let rolledBack = try cli(["exec", "db.db", "SELECT 1"] + fast, stdin: "first-pass\n")
        #expect(rolledBack.status != 0 && rolledBack.stderr.contains("older"), "\(rolledBack.output)")
        try current.write(to: slots)
        try Data("garbage".utf8).write(to: directory.url.appendingPathComponent("db.db.scm-keys.next"))
        let debris = try cli(["exec", "db.db", "SELECT 7"] + fast, stdin: "second-pass\n")
        #expect(debris.status == 0 && debris.stdout.contains("7"), "\(debris.output)")
        try FileManager.default.removeItem(at: slots)
        let fifo = try Program.runBash("mkfifo db.db.scm-keys", in: directory.url, environment: ["PATH": "/usr/bin:/bin"])
        #expect(fifo.0 == 0)
        let list = try cli(["keys", "db.db", "list"] + fast)
        #expect(list.status == 4 && list.stderr.contains("pipe") && !list.stderr.contains("Permission denied"), "\(list.output)")
    }
}
