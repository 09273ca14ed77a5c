import Foundation
import TestSupport
import Testing

@testable import TerminalIO

/// A note's title and body are shown escaped, so a note cannot clear the
/// screen, recolour it or forge the demo's own lines.
@Suite(.ownThread) struct LoginDemoTerminalOutputTests {
    let directory: ScratchDirectory
    let password = "correct-horse-1"
    init() throws { directory = try ScratchDirectory() }

    @Test func noteTitlesAndBodiesAreShownEscaped() throws {
        let title = "t\u{1B}[2J\u{9B}31m\u{202E}gpj.exe"
        let body = ["line one \u{1B}]0;owned\u{07}", "\rnotes> forged"]
        let lines = [password, password, "add " + title] + body + ["", "list", "show 1", "search gpj", "quit"]
        let result = try Program.run("LoginDemo", ["--db", "notes.db"], stdin: lines.map { $0 + "\n" }.joined(), in: directory.url)
        #expect(result.status == 0, "\(result.output)")
        let raw = result.output.unicodeScalars.filter { $0 != "\n" && TerminalText.needsEscape($0) }
        #expect(raw.isEmpty, "raw controls reached the terminal: \(raw.map { $0.value })")
        #expect(result.stdout.contains("#1  t\\x1b[2J\\u{9b}31m\\u{202e}gpj.exe  ("), "\(result.stdout)")
        #expect(result.stdout.contains("\nline one \\x1b]0;owned\\x07\n\\rnotes> forged\n"), "\(result.stdout)")
    }

    @Test func anUnknownArgumentIsShownEscaped() throws {
        let result = try Program.run("LoginDemo", ["\u{1B}]0;owned\u{07}\u{1B}[2J"], stdin: "", in: directory.url)
        #expect(result.status != 0)
        #expect(result.stderr.contains("unknown argument '\\x1b]0;owned\\x07\\x1b[2J'"), "\(result.stderr)")
        #expect(!result.output.unicodeScalars.contains { $0 != "\n" && TerminalText.needsEscape($0) })
    }
}
