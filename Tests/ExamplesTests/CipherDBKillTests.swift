import Foundation
import SeededRandom
import TestSupport
import Testing

/// `kill -9` during `cipherdb encrypt` (in place), then `cipherdb info` or `verify`: the next
/// command recovers first, leaves no `.scm-*` file and reports the file as what it now is.
@Suite(.ownThread) struct CipherDBKillTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    static var seed: UInt64 { TestDepth.seed }
    static let rows = 20_000
    /// Kills; a quick run (``TestDepth``) looks once with `info` and once with `verify`.
    static let trials = TestDepth.count(full: 12, quick: 2)

    /// A plaintext `plain.db` of ``rows`` + 2 rows (made with cipherdb: create, fill, decrypt).
    func makePlaintext() throws {
        try cli.createDatabase(
            """
            CREATE TABLE t(name TEXT);
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(Self.rows))
            INSERT INTO t SELECT 'row ' || x || ' ' || hex(randomblob(60)) FROM c;
            INSERT INTO t VALUES ('MARKER-1'), ('MARKER-2')
            """)
        let decrypt = try cli(["decrypt", "db.db", "--to", "plain.db"] + fast, stdin: password + "\n")
        try #require(decrypt.status == 0, "\(decrypt.output)")
    }

    var leftovers: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []).filter { $0.contains(".scm-") }
    }

    @Test func killedEncryptIsRecoveredByTheNextCommand() throws {
        try makePlaintext()
        var random = SeededGenerator(seed: Self.seed)
        TestDepth.announce("cipherdb kill -9 during encrypt", "\(Self.trials) kills")
        let environment = ["PW": "kill-pass-1"]
        let encrypt = ["encrypt", "victim.db", "--password-env", "PW"] + fast
        // How long an uninterrupted encrypt takes here: the kills fall inside it.
        try FileManager.default.copyItem(atPath: directory.path("plain.db"), toPath: directory.path("victim.db"))
        let start = Date()
        let whole = try cli(encrypt, environment: environment)
        try #require(whole.status == 0, "\(whole.output)")
        let duration = Date().timeIntervalSince(start)
        var states = ["plaintext": 0, "encrypted": 0]
        var recovered = 0
        for trial in 0..<Self.trials {
            try FileManager.default.removeItem(atPath: directory.path("victim.db"))
            try FileManager.default.copyItem(atPath: directory.path("plain.db"), toPath: directory.path("victim.db"))
            let running = try Program.start("cipherdb", encrypt, in: directory.url, environment: environment)
            usleep(UInt32(Double.random(in: 0...duration, using: &random) * 1_000_000))
            kill(running.process.processIdentifier, SIGKILL)
            _ = try running.wait()
            // Half the trials look with `info`, half with `verify`; both must recover first.
            let useInfo = trial % 2 == 0
            let look =
                useInfo
                ? try cli(["info", "victim.db"])
                : try cli(["verify", "victim.db", "--password-env", "PW"] + fast, environment: environment)
            #expect(leftovers.isEmpty, "\(TestDepth.replay), trial \(trial): \(leftovers) left after \(look.output)")
            if look.output.contains("rolled back the interrupted") || look.output.contains("finished the interrupted") { recovered += 1 }
            let plaintext = directory.isPlaintextSQLite("victim.db")
            states[plaintext ? "plaintext" : "encrypted", default: 0] += 1
            if useInfo {
                #expect(look.status == 0, "trial \(trial): \(look.output)")
                #expect(
                    look.stdout.contains(plaintext ? "kind: plaintext SQLite database" : "kind: encrypted"),
                    "trial \(trial): \(look.output)")
            } else {
                // verify refuses a plaintext file (exit 6) and passes an encrypted one.
                #expect(look.status == (plaintext ? 6 : 0), "trial \(trial): \(look.output)")
            }
            if !plaintext {
                let count = try cli(
                    ["exec", "victim.db", "SELECT count(*) FROM t", "--password-env", "PW"] + fast, environment: environment)
                #expect(count.stdout.contains("\(Self.rows + 2)"), "trial \(trial): \(count.output)")
            }
        }
        print(
            "cipherdb kill -9 during encrypt: \(Self.trials) kills over \(Int(duration * 1000)) ms; \(states); \(recovered) recovered by the next command"
        )
    }
}
