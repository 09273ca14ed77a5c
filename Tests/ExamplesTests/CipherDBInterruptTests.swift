import Foundation
import SeededRandom
import TestSupport
import Testing

/// SIGINT and SIGTERM at random moments (seeded: replay with the `SCM_TEST_SEED` printed) during each long
/// command — encrypt, decrypt --to, rekey, settings, keys rotate. Every run ends by itself
/// (never by a signal: no crash), and what it says agrees with what is found afterwards: exit
/// 0 and the command's message with the change complete, or 128 + the signal and "nothing was
/// changed" with the old state intact. No temporary file is left, none in `$TMPDIR`, and the
/// database opens.
@Suite(.serialized, .ownThread) struct CipherDBInterruptTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    static var seed: UInt64 { TestDepth.seed }
    static let rows = 8_000
    /// Interrupted runs per command; a quick run (``TestDepth``) sends one SIGINT and one SIGTERM.
    static let trials = TestDepth.count(full: 8, quick: 2)

    /// The environment of every run: the passwords, and a `$TMPDIR` of the test's own.
    var environment: [String: String] { ["PW": password, "NEW": "new-pass-2", "TMPDIR": directory.path("tmp")] }

    /// What one command's interrupted runs are checked against.
    struct Case {
        let label: String
        let arguments: [String]
        /// Printed on stdout when the command made its change.
        let success: String
        /// Puts the files back as they were before the command.
        let reset: () throws -> Void
        /// Checks the state found after a run; `changed` is what the run reported.
        let check: (_ changed: Bool, _ trial: String) throws -> Void
        /// How many interrupted runs (each unlock of a key-slot file costs Argon2id).
        var trials = CipherDBInterruptTests.trials
    }

    // MARK: - The commands

    @Test func interruptedEncryptInPlace() throws {
        try makeDatabase()
        try plainCopy("pristine.db")
        try run(
            Case(
                label: "encrypt", arguments: ["encrypt", "victim.db", "--password-env", "PW"] + fast,
                success: "Encrypted victim.db in place.",
                reset: { try replace("victim.db", with: "pristine.db") },
                check: { changed, trial in
                    if changed {
                        try expectRows("victim.db", password: "PW", trial)
                    } else {
                        #expect(directory.bytes("victim.db") == directory.bytes("pristine.db"), "\(trial): the plaintext file changed")
                    }
                }))
    }

    @Test func interruptedDecryptTo() throws {
        try makeDatabase()
        try run(
            Case(
                label: "decrypt --to", arguments: ["decrypt", "db.db", "--to", "out.db", "--password-env", "PW"] + fast,
                success: "Wrote a plaintext copy of db.db to out.db.",
                reset: { try? FileManager.default.removeItem(atPath: directory.path("out.db")) },
                check: { changed, trial in
                    #expect(directory.exists("out.db") == changed, "\(trial): out.db exists: \(directory.exists("out.db"))")
                    if changed {
                        #expect(directory.isPlaintextSQLite("out.db"), "\(trial)")
                        let info = try cli(["info", "out.db"])
                        #expect(info.stdout.contains("kind: plaintext SQLite database"), "\(trial): \(info.output)")
                    }
                    try expectRows("db.db", password: "PW", trial)
                }))
    }

    @Test func interruptedRekey() throws {
        try makeDatabase()
        try FileManager.default.copyItem(atPath: directory.path("db.db"), toPath: directory.path("pristine.db"))
        try run(
            Case(
                label: "rekey", arguments: ["rekey", "db.db", "--password-env", "PW", "--new-password-env", "NEW"] + fast,
                success: "Changed the password of db.db.",
                reset: { try replace("db.db", with: "pristine.db") },
                check: { changed, trial in
                    try expectRows("db.db", password: changed ? "NEW" : "PW", trial)
                    let other = try cli(
                        ["exec", "db.db", "SELECT 1", "--password-env", changed ? "PW" : "NEW"] + fast, environment: environment)
                    #expect(other.status == 3, "\(trial): the other password: \(other.output)")
                }))
    }

    @Test func interruptedSettings() throws {
        try makeDatabase()
        try FileManager.default.copyItem(atPath: directory.path("db.db"), toPath: directory.path("pristine.db"))
        try run(
            Case(
                label: "settings", arguments: ["settings", "db.db", "--password-env", "PW", "--set-page-size", "8192"] + fast,
                success: "Re-encrypted db.db with",
                reset: {
                    try replace("db.db", with: "pristine.db")
                    try? FileManager.default.removeItem(atPath: directory.path("db.db.cipherdb-settings"))
                },
                check: { changed, trial in
                    try expectRows("db.db", password: "PW", trial, extra: changed ? ["--page-size", "8192"] : [])
                }))
    }

    @Test func interruptedKeysRotate() throws {
        let create = try cli(["keys", "db.db", "create"] + fast, stdin: password + "\n")
        try #require(create.status == 0, "\(create.output)")
        try fill("db.db")
        for name in ["db.db", "db.db.scm-keys"] {
            try FileManager.default.copyItem(atPath: directory.path(name), toPath: directory.path("pristine-" + name))
        }
        let before = try exportKey()
        try run(
            Case(
                label: "keys rotate", arguments: ["keys", "db.db", "rotate", "--password-env", "PW"] + fast,
                success: "Re-encrypted db.db with a new data key",
                reset: {
                    try replace("db.db", with: "pristine-db.db")
                    try replace("db.db.scm-keys", with: "pristine-db.db.scm-keys")
                },
                check: { changed, trial in
                    let after = try exportKey()
                    #expect((after != before) == changed, "\(trial): data key changed: \(after != before)")
                    try expectRows("db.db", password: "PW", trial)
                }, trials: TestDepth.count(full: 5, quick: 2)))
    }

    /// A rekey waits on stdin for the new password with the database open: SIGINT ends it at
    /// once (no change begun); the handler must not wait for the open connection to close.
    @Test(arguments: [SIGINT, SIGTERM]) func aSignalDuringAWaitForInputEndsAtOnce(signal: Int32) throws {
        try makeDatabase()
        let running = try Program.start(
            "cipherdb", ["rekey", "db.db", "--password-env", "PW"] + fast, in: directory.url, environment: environment)
        defer { running.closeInput() }
        usleep(1_500_000)  // past the open: it now reads stdin, which stays open and empty
        try #require(running.process.isRunning, "\(running.stdout)")
        kill(running.process.processIdentifier, signal)
        let result = try running.wait(timeout: 20)
        #expect(running.process.terminationReason == .exit)
        #expect(result.status == 128 + signal, "\(result.output)")
        #expect(result.stderr.contains("while waiting for input: nothing was changed"), "\(result.output)")
        try expectRows("db.db", password: "PW", "after the wait")
        #expect(leftovers.isEmpty, "left \(leftovers)")
    }

    // MARK: - Running

    /// Runs `test` once whole (its duration spans the signals), then ``trials`` times with a
    /// signal at a random moment, SIGINT and SIGTERM in turn.
    func run(_ test: Case) throws {
        try FileManager.default.createDirectory(atPath: directory.path("tmp"), withIntermediateDirectories: true)
        var random = SeededGenerator(seed: Self.seed)
        try test.reset()
        let start = Date()
        let whole = try cli(test.arguments, environment: environment)
        let duration = Date().timeIntervalSince(start)
        try #require(whole.status == 0 && whole.stdout.contains(test.success), "\(whole.output)")
        try test.check(true, "uninterrupted")
        var outcomes = ["finished": 0, "stopped": 0]
        for trial in 0..<test.trials {
            try test.reset()
            let signal = trial % 2 == 0 ? SIGINT : SIGTERM
            let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
            let delay = Double.random(in: 0...(duration * 1.1), using: &random)
            let running = try Program.start("cipherdb", test.arguments, in: directory.url, environment: environment)
            usleep(UInt32(delay * 1_000_000))
            kill(running.process.processIdentifier, signal)
            let result = try running.wait()
            let label = "\(test.label), \(name) after \(Int(delay * 1000)) ms (\(TestDepth.replay))"
            let changed = result.status == 0 && running.process.terminationReason == .exit
            if running.process.terminationReason == .uncaughtSignal {
                // Only a signal that came before cipherdb installed its handler (before any work) ends it.
                #expect(result.status == signal && result.stderr.isEmpty, "\(label): ended by signal \(result.status): \(result.output)")
                outcomes["before the handler", default: 0] += 1
            } else if changed {
                #expect(result.stdout.contains(test.success), "\(label): \(result.output)")
                outcomes["finished", default: 0] += 1
            } else {
                #expect(result.status == 128 + signal, "\(label): \(result.output)")
                #expect(result.stderr.contains("stopped by \(name)"), "\(label): \(result.output)")
                #expect(result.stderr.contains("nothing was changed"), "\(label): \(result.output)")
                #expect(!result.stdout.contains(test.success), "\(label): \(result.output)")
                outcomes["stopped", default: 0] += 1
            }
            #expect(leftovers.isEmpty, "\(label): left \(leftovers)")
            try test.check(changed, label)
        }
        print("cipherdb \(test.label): \(test.trials) signals over \(Int(duration * 1000)) ms: \(outcomes) (\(TestDepth.replay))")
    }

    /// Temporary files beside the database or in `$TMPDIR` (the runner's output files aside).
    var leftovers: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
        let beside = names.filter { name in
            !name.hasPrefix(".out-") && !name.hasPrefix(".err-")
                && (name.hasSuffix("-journal") || name.hasSuffix("-wal") || name.hasSuffix(".tmp")
                    || (name.contains(".scm-") && !name.hasSuffix(".scm-keys") && !name.hasSuffix(".scm-settings")))
        }
        return beside + ((try? FileManager.default.contentsOfDirectory(atPath: directory.path("tmp"))) ?? []).map { "tmp/" + $0 }
    }

    // MARK: - Files

    func makeDatabase() throws {
        let create = try cli(["create", "db.db"] + fast, stdin: password + "\n")
        try #require(create.status == 0, "\(create.output)")
        try fill("db.db")
    }

    /// ``rows`` + 2 rows in table `t`.
    func fill(_ name: String) throws {
        let sql = """
            CREATE TABLE t(name TEXT);
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(Self.rows))
            INSERT INTO t SELECT 'row ' || x || ' ' || hex(randomblob(60)) FROM c;
            INSERT INTO t VALUES ('MARKER-1'), ('MARKER-2')
            """
        let fill = try cli(["exec", name, sql, "--password-env", "PW"] + fast, environment: environment)
        try #require(fill.status == 0, "\(fill.output)")
    }

    func plainCopy(_ name: String) throws {
        let decrypt = try cli(["decrypt", "db.db", "--to", name, "--password-env", "PW"] + fast, environment: environment)
        try #require(decrypt.status == 0, "\(decrypt.output)")
    }

    func replace(_ name: String, with pristine: String) throws {
        for suffix in ["", "-journal"] where directory.exists(name + suffix) {
            try FileManager.default.removeItem(atPath: directory.path(name + suffix))
        }
        try FileManager.default.copyItem(atPath: directory.path(pristine), toPath: directory.path(name))
    }

    func expectRows(_ name: String, password variable: String, _ trial: String, extra: [String] = []) throws {
        let count = try cli(
            ["exec", name, "SELECT count(*) FROM t", "--password-env", variable] + fast + extra, environment: environment)
        #expect(count.status == 0 && count.stdout == "count(*)\n\(Self.rows + 2)\n", "\(trial): \(count.output)")
    }

    func exportKey() throws -> String {
        let export = try cli(["export-key", "db.db", "--password-env", "PW"] + fast, environment: environment)
        try #require(export.status == 0, "\(export.output)")
        return export.stdout
    }
}
