import Foundation
import TestSupport
import Testing

/// LoginDemo's `passwd`, its rekey-error path (the delegate's didFailToRekey), and the
/// schema upgrade of an older file.
@Suite(.ownThread) struct LoginDemoPasswordTests {
    let directory: ScratchDirectory
    let original = "original-pass-1"
    let replacement = "replacement-pass-2"

    init() throws { directory = try ScratchDirectory() }

    func demo(_ lines: [String]) throws -> ProgramResult {
        try Program.run("LoginDemo", ["--db", "notes.db"], stdin: lines.map { $0 + "\n" }.joined(), in: directory.url)
    }

    func createWithOneNote() throws {
        let result = try demo([original, original, "add Diary", "dear diary", "", "quit"])
        try #require(result.status == 0, "\(result.output)")
    }

    @Test func passwdThenLoginWithTheNewPassword() throws {
        try createWithOneNote()
        let change = try demo([original, "passwd", original, replacement, replacement, "quit"])
        #expect(change.status == 0, "\(change.output)")
        #expect(change.stdout.contains("Password changed."))
        #expect(!change.output.contains(replacement))
        let old = try demo([original, original, original])
        #expect(old.status == 1, "the old password still opens the database")
        let new = try demo([replacement, "list", "quit"])
        #expect(new.status == 0, "\(new.output)")
        #expect(new.stdout.contains("#1  Diary"))
    }

    @Test func passwdRefusesAWrongCurrentPasswordThreeTimes() throws {
        try createWithOneNote()
        let result = try demo([original, "passwd", "wrong-pass-1", "wrong-pass-2", "wrong-pass-3", "list", "quit"])
        #expect(result.stdout.contains("Incorrect password (2 tries left)."))
        #expect(result.stdout.contains("Incorrect password; the password is unchanged."))
        #expect(result.stdout.contains("#1  Diary"), "after three tries the shell goes on")
        #expect(!result.stdout.contains("Unknown command"))
        #expect(!result.stdout.contains("Changing the password"))
    }

    /// An invalid or mismatched new password asks again, so the next password typed never
    /// lands at the `notes>` prompt (where it would be echoed); an empty one keeps the old.
    @Test func passwdAsksAgainAfterAnInvalidOrMismatchedNewPassword() throws {
        try createWithOneNote()
        let keep = try demo([original, "passwd", original, replacement, "typo-typo-typo", "short", "", "list", "quit"])
        #expect(keep.status == 0, "\(keep.output)")
        #expect(keep.stdout.contains("Passwords didn't match. Start again."))
        #expect(keep.stdout.contains("Invalid password: it must have at least 8 characters. Try another one."))
        #expect(keep.stdout.contains("The password is unchanged."))
        #expect(!keep.stdout.contains("Unknown command"), "a password reached the notes> prompt:\n\(keep.stdout)")
        #expect(!keep.stdout.contains("Changing the password"))
        #expect(!keep.output.contains("typo-typo-typo") && !keep.output.contains("short\n"))
        #expect(try demo([original, "list", "quit"]).stdout.contains("#1  Diary"))

        let change = try demo([original, "passwd", original, "short", replacement, replacement, "quit"])
        #expect(change.status == 0, "\(change.output)")
        #expect(change.stdout.contains("Invalid password: it must have at least 8 characters. Try another one."))
        #expect(change.stdout.contains("Password changed."))
        #expect(!change.stdout.contains("Unknown command"))
        #expect(!change.output.contains(replacement))
        #expect(try demo([replacement, "list", "quit"]).stdout.contains("#1  Diary"))
    }

    @Test func rekeyErrorLocksTheAppAndTheOriginalPasswordStillOpens() throws {
        try createWithOneNote()
        // A directory where the rekey writes its marker makes the rekey fail after it started.
        let blocker = directory.url.appendingPathComponent("notes.db.scm-rekeying/keep")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        let result = try demo([original, "passwd", original, replacement, replacement, "list", original, "list", "quit"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("Changing the password…"))
        #expect(result.stdout.contains("Please log in again using your original password."))
        #expect(result.stdout.contains("Incorrect password"), "the app did not lock: 'list' should be read as a password")
        #expect(result.stdout.contains("#1  Diary"))
        try FileManager.default.removeItem(at: blocker.deletingLastPathComponent())
        #expect(try demo([replacement]).status == 1, "the failed rekey changed the password")
    }

    @Test func anOlderSchemaIsUpgradedOnLogin() throws {
        let create = try Program.run("cipherdb", ["create", "notes.db"], stdin: original + "\n", in: directory.url)
        try #require(create.status == 0, "\(create.output)")
        let version1 = """
            CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL DEFAULT '',
                              created_at TEXT NOT NULL DEFAULT (datetime('now')));
            INSERT INTO note(title) VALUES ('From version 1');
            PRAGMA user_version = 1;
            """
        let exec = try Program.run("cipherdb", ["exec", "notes.db", version1], stdin: original + "\n", in: directory.url)
        try #require(exec.status == 0, "\(exec.output)")
        let result = try demo([original, "list", "info", "quit"])
        #expect(result.stdout.contains("Migrating the schema from version 1 to 2"))
        #expect(result.stdout.contains("#1  From version 1"))
        #expect(result.stdout.contains("Schema version:  2"))
    }
}
