import Foundation
import SQLCipherManager
import TestSupport
import Testing

/// Drives the built LoginDemo through pipes: passwords and commands on stdin, one per line.
@Suite(.ownThread) struct LoginDemoTests {
    let directory: ScratchDirectory
    let password = "correct-horse-1"

    init() throws { directory = try ScratchDirectory() }

    func demo(_ lines: [String], arguments: [String] = ["--db", "notes.db"]) throws -> ProgramResult {
        try Program.run("LoginDemo", arguments, stdin: lines.map { $0 + "\n" }.joined(), in: directory.url)
    }

    /// First run with `password` and one note, then quit.
    func createWithOneNote() throws {
        let result = try demo([password, password, "add Bank", "PIN 4711", "", "quit"])
        try #require(result.status == 0, "\(result.output)")
    }

    @Test func firstRunRejectsInvalidAndMismatchedPasswordsThenCreates() throws {
        let result = try demo([
            "short", password, "something-else", password, password,
            "add Groceries", "milk and eggs", "", "list", "quit",
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("Invalid password: it must have at least 8 characters"))
        #expect(result.stdout.contains("Passwords didn't match"))
        #expect(result.stdout.contains("Database created"))
        #expect(result.stdout.contains("Migrating the schema from version 0 to 2"))
        #expect(result.stdout.contains("#1  Groceries"))
        #expect(result.stdout.contains("Bye. The database is closed."))
        #expect(!result.output.contains(password), "a password was printed")
        #expect(directory.exists("notes.db"))
        #expect(!directory.isPlaintextSQLite("notes.db"))
        #expect(!directory.fileContains("notes.db", "milk and eggs"))
    }

    @Test func defaultDatabaseIsInTheCurrentDirectory() throws {
        let result = try demo([password, password, "quit"], arguments: [])
        #expect(result.status == 0, "\(result.output)")
        #expect(directory.exists("secure-notes.db"))
    }

    @Test func wrongPasswordIsRefusedThreeTimes() throws {
        try createWithOneNote()
        let result = try demo(["wrong-password-1", "wrong-password-2", "wrong-password-3", "list"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.stdout.components(separatedBy: "Incorrect password").count - 1 == 3)
        #expect(result.stdout.contains("Too many incorrect passwords"))
        #expect(!result.stdout.contains("Bank"))
    }

    @Test func rightPasswordAfterAWrongOneListsTheNotes() throws {
        try createWithOneNote()
        let result = try demo(["wrong-password", password, "list", "show 1", "search pin", "quit"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("Incorrect password (2 tries left)"))
        #expect(result.stdout.contains("Database opened"))
        #expect(result.stdout.contains("#1  Bank"))
        #expect(result.stdout.contains("PIN 4711"))
        #expect(!result.stdout.contains("Migrating"), "an up-to-date schema must not migrate")
    }

    @Test func deleteRemovesANote() throws {
        try createWithOneNote()
        let result = try demo([password, "delete 1", "delete 1", "list", "quit"])
        #expect(result.stdout.contains("Deleted note #1."))
        #expect(result.stdout.contains("No note #1."))
        #expect(result.stdout.contains("No notes yet."))
    }

    @Test func infoShowsVersionSettingsSchemaAndSize() throws {
        try createWithOneNote()
        let result = try demo([password, "info", "quit"])
        // The demo is built against the SQLCipher this test runs with: 3.4.1 or 4.x.
        let linked = try #require(DatabaseTools.linkedSQLCipherVersion)
        #expect(result.stdout.contains("SQLCipher:       \(linked)"), "\(result.stdout)")
        #expect(result.stdout.contains("KDF iterations:  "))
        #expect(result.stdout.contains("Schema version:  2 (this app: 2)"))
        #expect(result.stdout.contains("\(directory.bytes("notes.db").count) bytes"))
        #expect(result.stdout.contains("Notes:           1"))
    }

    @Test func lockReturnsToTheLoginPrompt() throws {
        try createWithOneNote()
        let result = try demo([password, "lock", "list", password, "list", "quit"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("Locked. The database is closed and its key forgotten."))
        #expect(result.stdout.contains("Incorrect password"), "'list' was taken as a password after lock")
        #expect(result.stdout.components(separatedBy: "#1  Bank").count - 1 == 1)
    }

    @Test func endOfInputLeavesWithTheDatabaseClosed() throws {
        try createWithOneNote()
        let inShell = try demo([password, "list"])
        #expect(inShell.status == 0)
        #expect(inShell.stdout.hasSuffix("Bye. The database is closed.\n"))
        let atLogin = try demo([])
        #expect(atLogin.status == 1)
        #expect(atLogin.stdout.contains("No password given"))
    }

    @Test func interruptClosesTheDatabaseAndExits130() throws {
        try createWithOneNote()
        let running = try Program.start("LoginDemo", ["--db", "notes.db"], in: directory.url)
        running.send(password + "\n")
        try running.waitForOutput("notes> ")
        running.process.interrupt()
        let result = try running.wait()
        #expect(result.status == 130)
        #expect(result.stdout.contains("Interrupted. The database is closed."))
        #expect(!directory.exists("notes.db-journal"))
        #expect(try demo([password, "list", "quit"]).stdout.contains("#1  Bank"))
    }

    @Test func usageErrorExits2() throws {
        let result = try demo([], arguments: ["--bogus"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown argument '--bogus'"))
    }
}
