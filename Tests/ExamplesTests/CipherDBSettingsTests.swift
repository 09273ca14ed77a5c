import Foundation
import TestSupport
import Testing

/// "Your password is right, the settings are not": files written with each known set of cipher
/// settings — by cipherdb and by the Debian `sqlcipher` shell — opened without those settings
/// exit 3 with the options to add, found by the library's settings diagnosis without changing a byte.
@Suite(.ownThread) struct CipherDBSettingsTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    var passwordEnv: [String] { ["--password-env", "DBPW"] }

    func run(_ arguments: [String]) throws -> ProgramResult {
        try cli(arguments + passwordEnv, environment: ["DBPW": password])
    }

    /// Every file in the directory with its bytes (the programs' own output files left out).
    func snapshot() throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { !$0.hasPrefix(".") }
        return Dictionary(uniqueKeysWithValues: names.map { ($0, directory.bytes($0)) })
    }

    /// Each older format as cipherdb writes it with the linked SQLCipher (3.x: the format's own
    /// values; 4.x: `--compatibility`), and on 4.x its own format with another kdf_iter.
    static var writtenSettings: [([String], String)] {
        guard LinkedFormat.isSQLCipher4 else {
            return [
                (["--kdf-iter", "4000", "--legacy-kdf", "--no-hmac"], "kdf_iter 4000 and no HMAC (SQLCipher 1 format)"),
                (["--kdf-iter", "4000", "--legacy-kdf"], "kdf_iter 4000 (SQLCipher 2 format)"),
                (["--page-size", "8192"], "8192-byte pages (SQLCipher 3 defaults with 8192-byte pages)"),
                (
                    ["--kdf-iter", "4000", "--legacy-kdf", "--page-size", "16384", "--no-hmac"],
                    "kdf_iter 4000, 16384-byte pages and no HMAC (SQLCipher 1 format with 16384-byte pages)"
                ),
            ]
        }
        return [
            (["--compatibility", "1"], "cipher_compatibility 1 (SQLCipher 1 format)"),
            (["--compatibility", "2"], "cipher_compatibility 2 (SQLCipher 2 format)"),
            (["--page-size", "8192"], "8192-byte pages (SQLCipher 4 defaults with 8192-byte pages)"),
            (
                ["--compatibility", "2", "--page-size", "16384"],
                "cipher_compatibility 2 and 16384-byte pages (SQLCipher 2 format with 16384-byte pages)"
            ),
            (["--kdf-iter", "4000", "--legacy-kdf"], "kdf_iter 4000 (SQLCipher 4 format with kdf_iter 4000)"),
        ]
    }

    @Test(arguments: writtenSettings)
    func aFileWrittenWithOtherSettingsIsToldWhatToAdd(_ settings: [String], _ found: String) throws {
        let create = try run(["create", "db.db"] + settings)
        try #require(create.status == 0, "\(create.output)")
        let before = try snapshot()
        let plain = try run(["verify", "db.db"])
        #expect(plain.status == 3, "\(plain.output)")
        let flags = settings.joined(separator: " ")
        #expect(plain.stderr.contains("The password is right; db.db uses \(found): add `\(flags)`"), "\(plain.stderr)")
        #expect(plain.stderr.contains("`cipherdb settings db.db \(flags) --set-defaults`"))
        #expect(try snapshot() == before, "the diagnosis changed the directory")
        let info = try run(["info", "db.db"])
        #expect(info.status == 3)
        #expect(info.stdout.contains("unlock: the password is right; the file uses \(found)"), "\(info.stdout)")
        #expect(try run(["verify", "db.db"] + settings).stdout == "password: correct\nintegrity: ok\n")
    }

    @Test func aWrongPasswordIsToldThatNoKnownSettingsOpenIt() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let before = try snapshot()
        let wrong = try cli(["info", "db.db", "--unlock"], stdin: "not-the-password\n")
        #expect(wrong.status == 3)
        #expect(wrong.stdout.contains("unlock: no known cipher settings open the file with this password"))
        #expect(
            wrong.stderr.contains(
                "Incorrect password for db.db: it opens neither with the settings given nor with the "
                    + "\(LinkedFormat.knownSetCount - 1) other known sets"),
            "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("password is right"))
        #expect(try snapshot() == before)
    }

    @Test func afterSettingsLaterCommandsAreToldTheNewSettings() throws {
        try cli.createDatabase("CREATE TABLE t(x); INSERT INTO t VALUES ('MARKER')")
        let change = try run(["settings", "db.db", "--set-kdf-iter", "6000", "--set-page-size", "2048"] + fast)
        #expect(change.status == 0, "\(change.output)")
        #expect(change.stdout.contains("Open it with `--kdf-iter 6000 --legacy-kdf --page-size 2048` from now on."))
        for stale in [[], fast] {
            let later = try run(["exec", "db.db", "SELECT x FROM t"] + stale)
            #expect(later.status == 3)
            #expect(
                later.stderr.contains(
                    "The password is right; db.db uses kdf_iter 6000 and 2048-byte pages"
                        + " (the settings `cipherdb settings` recorded): add `--kdf-iter 6000 --legacy-kdf --page-size 2048`"),
                "\(later.stderr)")
        }
        #expect(
            try run(["exec", "db.db", "SELECT x FROM t", "--kdf-iter", "6000", "--legacy-kdf", "--page-size", "2048"]).stdout
                == "x\nMARKER\n")
        // Without the record only the known sets are tried: 6000 is none of them.
        try FileManager.default.removeItem(atPath: directory.path("db.db.cipherdb-settings"))
        let unrecorded = try run(["verify", "db.db"])
        #expect(unrecorded.status == 3)
        #expect(unrecorded.stderr.contains("nor with the \(LinkedFormat.knownSetCount - 1) other known sets"))
        #expect(unrecorded.stderr.contains("`cipherdb settings` records the ones it sets beside it, in db.db.cipherdb-settings"))
    }

    /// The record is written like the library's files: owner-only, no temporary left, no
    /// Foundation atomic-write leftover (`.dat.nosync…`) beside the database.
    @Test func theRecordIsWrittenDurablyAndLeavesNothingBehind() throws {
        try cli.createDatabase("CREATE TABLE t(x); INSERT INTO t VALUES ('MARKER')")
        let change = try run(["settings", "db.db", "--set-kdf-iter", "6000"] + fast)
        #expect(change.status == 0, "\(change.output)")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path("db.db.cipherdb-settings"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(directory.bytes("db.db.cipherdb-settings") == Data("kdf_iter=6000\n".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(names.filter { $0.contains("nosync") || $0.hasSuffix(".tmp") }.isEmpty, "\(names)")
    }

    /// A temporary record a kill left behind is removed by the next command, whatever it is.
    @Test func aStaleTemporaryRecordIsRemovedByTheNextCommand() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let stale = directory.path("db.db.cipherdb-settings.tmp")
        #expect(FileManager.default.createFile(atPath: stale, contents: Data()))
        let verify = try run(["verify", "db.db"] + fast)
        #expect(verify.status == 0, "\(verify.output)")
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    /// `kill -9` of `settings` before its copy is installed: the file keeps its settings (6000
    /// iterations, which no known set has), and the next command without options is told them,
    /// because the record was written, naming the old and the new set, before the change began.
    @Test func aKilledSettingsChangeStillLeavesARecordThatOpensTheFile() throws {
        let custom = ["--kdf-iter", "6000", "--legacy-kdf"]
        let create = try run(["create", "db.db"] + custom)
        try #require(create.status == 0, "\(create.output)")
        let pause = directory.path("paused")
        let running = try Program.start(
            "cipherdb", ["settings", "db.db", "--set-kdf-iter", "7000", "--password-env", "DBPW"] + custom, in: directory.url,
            environment: ["DBPW": password, "SCM_FAULT_PAUSE": "checked:" + pause])
        try poll(
            timeout: 30, isRunning: { running.process.isRunning }, until: { FileManager.default.fileExists(atPath: pause) },
            failure: { RunnerError("settings never reached its install") })
        kill(running.process.processIdentifier, SIGKILL)
        _ = try running.wait()
        let later = try run(["verify", "db.db"])
        #expect(later.status == 3, "\(later.output)")
        #expect(
            later.stderr.contains("uses kdf_iter 6000 (the settings `cipherdb settings` recorded): add `--kdf-iter 6000 --legacy-kdf`"),
            "\(later.stderr)")
        #expect(try run(["verify", "db.db"] + custom).stdout == "password: correct\nintegrity: ok\n")
    }

    @Test func settingsSetDefaultsConvertsAFileAndForgetsTheRecord() throws {
        let create = try run(["create", "db.db", "--kdf-iter", "4000", "--legacy-kdf", "--no-hmac"])
        try #require(create.status == 0, "\(create.output)")
        let convert = try run(["settings", "db.db", "--kdf-iter", "4000", "--legacy-kdf", "--no-hmac", "--set-defaults"])
        #expect(convert.status == 0, "\(convert.output)")
        #expect(
            convert.stdout.contains(
                LinkedFormat.isSQLCipher4 ? "kdf_iter=256000, cipher_use_hmac=ON" : "kdf_iter=64000, cipher_use_hmac=ON"))
        #expect(!directory.exists("db.db.cipherdb-settings"))
        #expect(try run(["verify", "db.db"]).status == 0)
    }

    /// Files the Debian `sqlcipher` shell of the linked version writes with `PRAGMA kdf_iter`,
    /// `cipher_use_hmac` and `cipher_page_size` (3.x), or `cipher_compatibility` (4.x; there
    /// `kdf_iter = 4000` alone keeps the 4.x format).
    static var shellSettings: [([String], String)] {
        let first =
            LinkedFormat.isSQLCipher4
            ? (["PRAGMA cipher_compatibility = 1;", "PRAGMA cipher_page_size = 4096;"], "--compatibility 1 --page-size 4096")
            : (
                ["PRAGMA kdf_iter = 4000;", "PRAGMA cipher_use_hmac = OFF;", "PRAGMA cipher_page_size = 4096;"],
                "--kdf-iter 4000 --legacy-kdf --page-size 4096 --no-hmac"
            )
        return [
            first,
            (["PRAGMA kdf_iter = 4000;"], "--kdf-iter 4000 --legacy-kdf"),
            (["PRAGMA cipher_page_size = 16384;"], "--page-size 16384"),
        ]
    }

    @Test(arguments: shellSettings)
    func aFileTheShellWroteIsToldWhatToAdd(_ pragmas: [String], _ flags: String) throws {
        let shell = try SQLCipherShell.require()
        let script = (["PRAGMA key = '\(password)';"] + pragmas + ["CREATE TABLE t(x);", "INSERT INTO t VALUES ('MARKER');"])
        let made = try SQLCipherShell.run(shell, directory.path("shell.db"), script.joined(separator: "\n") + "\n")
        try #require(made.status == 0, "sqlcipher: \(made.stderr)")
        let before = try snapshot()
        let plain = try run(["exec", "shell.db", "SELECT x FROM t"])
        #expect(plain.status == 3)
        #expect(plain.stderr.contains("The password is right; shell.db uses "), "\(plain.stderr)")
        #expect(plain.stderr.contains("add `\(flags)`"), "\(plain.stderr)")
        #expect(try snapshot() == before)
        let told = try run(["exec", "shell.db", "SELECT x FROM t"] + flags.split(separator: " ").map(String.init))
        #expect(told.stdout == "x\nMARKER\n", "\(told.output)")
    }
}

/// The Debian `sqlcipher` shell, an independent writer of SQLCipher files.
enum SQLCipherShell {
    static func require() throws -> URL {
        let url = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SCM_SQLCIPHER_SHELL"] ?? "/usr/bin/sqlcipher")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        let reason = "the sqlcipher shell is missing; `make test` installs it (scripts/ensure-deps.sh)"
        if ProcessInfo.processInfo.environment["SCM_REQUIRE_INTEROP"] == "1" { throw RunnerError(reason) }
        try Test.cancel("skipped: \(reason)")
    }

    /// Runs `script` (the key in it, on stdin) on the database at `path`.
    static func run(_ shell: URL, _ path: String, _ script: String) throws -> ProgramResult {
        let process = ChildProcess()
        process.executableURL = shell
        process.arguments = ["-batch", "-bail", "-init", "/dev/null", path]
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProgramResult(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}
