import Foundation
import TestSupport
import Testing

/// One cap for a password from any source, refused with one message and
/// never cut; an over-long first line of stdin never makes the next line's content be used.
@Suite(.ownThread) struct CipherDBPasswordCapTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    static let cap = 1 << 20
    static let refusal = "is longer than 1 MiB (1048576 bytes), the most accepted from any source; it was refused, not cut."

    @Test func aTenMegabytePasswordOnStdinIsRefusedNotCut() throws {
        let long = String(repeating: "p", count: 10_000_000)
        let result = try cli(["create", "db.db"] + fast, stdin: long + "\n")
        #expect(result.status == 2, "\(result.output.prefix(500))")
        #expect(result.stderr.contains("The password from stdin " + Self.refusal), "\(result.stderr.prefix(500))")
        #expect(!directory.exists("db.db"), "a database was created with a cut password")
    }

    @Test func theSameCapAndMessageForAPasswordFile() throws {
        try directory.writeSecret("long", Data(String(repeating: "p", count: Self.cap + 1).utf8))
        try directory.writeSecret("exact", Data((String(repeating: "p", count: Self.cap) + "\r\n").utf8))
        let long = try cli(["create", "db.db", "--password-file", "long"] + fast)
        #expect(long.status == 2, "\(long.output.prefix(500))")
        #expect(long.stderr.contains("The password from the password file long (--password-file) " + Self.refusal), "\(long.stderr)")
        #expect(!directory.exists("db.db"))
        let exact = try cli(["create", "db.db", "--password-file", "exact"] + fast)
        #expect(exact.status == 0, "a password of exactly the cap is accepted: \(exact.output.prefix(500))")
        let onStdin = try cli(["verify", "db.db"] + fast, stdin: String(repeating: "p", count: Self.cap) + "\r\n")
        #expect(onStdin.status == 0, "the same password on stdin opens it: \(onStdin.output.prefix(500))")
    }

    @Test func anOverLongOldPasswordNeverMakesTheNewLineTheKey() throws {
        let old = String(repeating: "o", count: Self.cap)
        try directory.writeSecret("old", Data(old.utf8))
        let create = try cli(["create", "db.db", "--password-file", "old"] + fast)
        try #require(create.status == 0, "\(create.output.prefix(500))")
        let before = directory.bytes("db.db")
        // The old code cut the first line at 1 MiB (which opens the file), then read its tail
        // as the new password.
        let rekey = try cli(["rekey", "db.db"] + fast, stdin: old + "tail-of-old\nNEW-password-1\n")
        #expect(rekey.status == 2, "\(rekey.output.prefix(500))")
        #expect(rekey.stderr.contains("The password from stdin " + Self.refusal), "\(rekey.stderr.prefix(500))")
        #expect(directory.bytes("db.db") == before, "the database was rekeyed")
        for wrong in ["tail-of-old", "NEW-password-1"] {
            #expect(try cli(["verify", "db.db"] + fast, stdin: wrong + "\n").status == 3, "\(wrong) opens it")
        }
        #expect(try cli(["verify", "db.db", "--password-file", "old"] + fast).status == 0)
    }

    @Test func theLoginDemoRefusesAnOverLongPasswordWithTheSameMessage() throws {
        let long = String(repeating: "p", count: Self.cap + 10)
        let lines = [long, "correct-horse-1", "correct-horse-1", "quit"]
        let result = try Program.run("LoginDemo", ["--db", "notes.db"], stdin: lines.map { $0 + "\n" }.joined(), in: directory.url)
        #expect(result.status == 0, "\(result.output.suffix(500))")
        #expect(result.stdout.contains("The password from the prompt " + Self.refusal), "\(result.stdout.suffix(500))")
        #expect(result.stdout.contains("Database created"), "\(result.stdout.suffix(500))")
        let again = try Program.run("LoginDemo", ["--db", "notes.db"], stdin: "correct-horse-1\nquit\n", in: directory.url)
        #expect(again.status == 0 && again.stdout.contains("Unlocked"), "\(again.output.suffix(500))")
    }
}
