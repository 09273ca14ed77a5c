import Foundation
import Testing

/// The programs at a real (pseudo-)terminal: passwords are typed with echo off and never shown.
@Suite struct TerminalTests {
    let directory: ScratchDirectory
    init() throws { directory = try ScratchDirectory() }

    @Test func loginDemoTypesPasswordsWithoutEchoAndCommandsWithEcho() throws {
        let session = try PseudoTerminalSession("LoginDemo", ["--db", "notes.db"], in: directory.url)
        try session.type("typed-secret-1", after: "New password: ", echo: false)
        try session.type("typed-secret-1", after: "Confirm your password: ", echo: false)
        try session.type("list", after: "notes> ", echo: true)
        try session.type("quit", after: "notes> ", echo: true)
        #expect(try session.wait() == 0)
        #expect(!session.shown.contains("typed-secret-1"), "the password was echoed:\n\(session.shown)")
        #expect(session.shown.contains("notes> list"), "commands should echo:\n\(session.shown)")
        #expect(session.terminalEchoes && !session.readsKeys, "echo and canonical input must be back after the prompt")
    }

    @Test func cipherdbAsksTwiceWithoutEchoOnATerminal() throws {
        let session = try PseudoTerminalSession("cipherdb", ["create", "db.db", "--kdf-iter", "4000", "--legacy-kdf"], in: directory.url)
        try session.type("typed-secret-2", after: "New password for db.db: ", echo: false)
        try session.type("typed-secret-2", after: "Confirm the password: ", echo: false)
        #expect(try session.wait() == 0)
        #expect(session.shown.contains("Created encrypted database db.db"))
        #expect(!session.shown.contains("typed-secret-2"))
    }

    @Test func ctrlCAtAPasswordPromptRestoresEchoAndExits130() throws {
        let session = try PseudoTerminalSession("LoginDemo", ["--db", "notes.db"], in: directory.url)
        try session.interrupt(after: "New password: ", echo: false)
        #expect(try session.wait() == 130)
        #expect(session.shown.contains("Interrupted. The database is closed."))
        #expect(session.terminalEchoes, "the interrupt handler must turn echo back on")
    }
}
