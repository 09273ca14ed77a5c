import Foundation
import Testing

/// The login demo's shell at a pseudo-terminal: arrows, Backspace and history edit commands
/// (no `^[[D` on screen), `passwd` asks again after an invalid new password, and no password
/// is ever shown or kept in the history.
@Suite struct LineEditingTests {
    let directory: ScratchDirectory
    let password = "typed-secret-1"
    init() throws { directory = try ScratchDirectory() }

    static let left = "\u{1B}[D", right = "\u{1B}[C", up = "\u{1B}[A", down = "\u{1B}[B"
    static let backspace = "\u{7F}", home = "\u{1B}[H", end = "\u{1B}[F"

    /// A demo at a terminal, logged in on a new database.
    func loggedIn() throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession("LoginDemo", ["--db", "notes.db"], in: directory.url)
        try session.type(password, after: "New password: ", echo: false)
        try session.type(password, after: "Confirm your password: ", echo: false)
        return session
    }

    /// Waits for the next `notes> ` prompt, then sends `keys` as typed.
    func keys(_ session: PseudoTerminalSession, _ keys: String) throws {
        try session.type("", after: "notes> ", echo: true, enter: false)
        session.send(keys)
    }

    @Test func arrowsAndBackspaceEditTheCommand() throws {
        let session = try loggedIn()
        // "lst", two steps left, "i": "list". Then "addd x", Backspace at the end… is "add x"?
        try keys(session, "lst" + Self.left + Self.left + "i" + "\r")
        try session.waitForText("No notes yet")
        try keys(session, "seaxrch" + Self.left + Self.left + Self.left + Self.backspace + Self.end + " milk\r")
        try session.waitForText("No note contains 'milk'.")
        try keys(session, "xquit" + Self.home + Self.right + Self.backspace + "\r")
        #expect(try session.wait() == 0)
        #expect(!session.shown.contains("^[["), "escape sequences were printed:\n\(session.shown)")
        #expect(!session.shown.contains("Unknown command"), "\(session.shown)")
        #expect(session.terminalEchoes && !session.readsKeys, "the terminal must be back in its normal mode")
    }

    @Test func upAndDownWalkTheCommandHistory() throws {
        let session = try loggedIn()
        try keys(session, "search one\r")
        try session.waitForText("No note contains 'one'.")
        try keys(session, "search two\r")
        try session.waitForText("No note contains 'two'.")
        // Up twice is "search one"; Down once is "search two"; edit it to "search twox".
        try keys(session, Self.up + Self.up + Self.down + "x\r")
        try session.waitForText("No note contains 'twox'.")
        // Up past the oldest stays there; Down past the newest is the draft again.
        try keys(session, "li" + Self.up + Self.up + Self.up + Self.up + Self.down + Self.down + Self.down + "st\r")
        try session.waitForText("No notes yet")
        try keys(session, "quit\r")
        #expect(try session.wait() == 0)
    }

    @Test func ctrlCWhileEditingPutsTheTerminalBack() throws {
        let session = try loggedIn()
        try keys(session, "half a comm")
        try session.interrupt(after: "half a comm", echo: true)
        #expect(try session.wait() == 130)
        #expect(session.shown.contains("Interrupted. The database is closed."))
        #expect(session.terminalEchoes && !session.readsKeys, "raw mode must end with the program")
    }

    /// `passwd` at a terminal: the invalid new password is refused and asked for again with
    /// echo still off; the passwords never show, and Up at `notes>` never brings one back.
    @Test func passwdAsksAgainWithoutEchoAndKeepsNoPasswordInTheHistory() throws {
        let session = try loggedIn()
        try session.type("passwd", after: "notes> ", echo: true)
        try session.type(password, after: "Current password: ", echo: false)
        try session.type("short", after: "New password (empty keeps the current one): ", echo: false)
        try session.type("replacement-pass-2", after: "New password (empty keeps the current one): ", echo: false)
        try session.type("replacement-pass-2", after: "Confirm the new password: ", echo: false)
        try session.waitForText("Password changed.")
        // Every line typed at notes> so far: "passwd". Up, Up, Up, Enter runs it again.
        try keys(session, Self.up + Self.up + Self.up + "\r")
        try session.type("", after: "Current password: ", echo: false)
        try session.waitForText("Incorrect password (2 tries left).")
        // Ctrl-D at the third prompt, counted as its answer: the next password waits for a fourth.
        try session.type("\u{04}", after: "Current password: ", echo: false, enter: false)
        // Ctrl-D ended that prompt only: the next passwd reads passwords again.
        try keys(session, "passwd\r")
        try session.type("replacement-pass-2", after: "Current password: ", echo: false)
        try session.type("", after: "New password (empty keeps the current one): ", echo: false)
        try session.waitForText("The password is unchanged.")
        try keys(session, "quit\r")
        #expect(try session.wait() == 0)
        let shown = session.shown
        #expect(shown.contains("Invalid password: it must have at least 8 characters. Try another one."))
        for secret in [password, "short", "replacement-pass-2"] {
            #expect(!shown.contains(secret), "\(secret) was shown:\n\(shown)")
        }
        #expect(!shown.contains("Unknown command"))
    }
}
