import Foundation
import SQLCipherManager
import TestSupport
import Testing

@testable import TerminalIO

/// Nothing printed from data (values, names, slot labels, SQL, paths) can
/// move the cursor, change colours or forge a line on the terminal that shows it.
@Suite(.ownThread) struct CipherDBTerminalOutputTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    /// A clear screen, a window title, a colour, a C1 CSI, DEL, a right-to-left override and a
    /// forged line, in one string.
    static let hostile = "a\u{1B}[2J\u{1B}]0;owned\u{07}\u{1B}[31mred\u{9B}1m\u{7F}\u{202E}txt.exe\nslot 9: password \"forged\""

    /// The characters a terminal acts on: none may reach it from data.
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.filter { $0 != "\n" && TerminalText.needsEscape($0) }.map { String(format: "U+%04X", $0.value) }
    }

    @Test func theEscapeShowsEveryControlAndKeepsText() {
        #expect(TerminalText.escape("é 日本 🙂 a\\b") == "é 日本 🙂 a\\\\b")
        #expect(
            TerminalText.escape("\u{1B}[2J\t\n\r\u{7F}\u{9B}\u{202E}\u{2066}\u{2028}")
                == "\\x1b[2J\\t\\n\\r\\x7f\\u{9b}\\u{202e}\\u{2066}\\u{2028}")
        #expect(TerminalText.escape(bytes: [0x61, 0xFF, 0xC3, 0xA9, 0xE2, 0x82, 0x1B]) == "a\\xffé\\xe2\\x82\\x1b")
        #expect(TerminalText.escape(bytes: [0xED, 0xA0, 0x80]) == "\\xed\\xa0\\x80", "a UTF-16 surrogate is not UTF-8")
    }

    @Test func keysListShowsAPlantedLabelEscaped() throws {
        let manager = DatabaseManager(url: directory.url.appendingPathComponent("db.db"))
        try manager.create(.password(password), keySlots: true, label: Self.hostile)
        manager.close()
        let result = try cli(["keys", "db.db", "list"])
        #expect(result.status == 0, "\(result.output)")
        #expect(Self.controls(in: result.output).isEmpty, "raw controls: \(Self.controls(in: result.output))")
        #expect(result.stdout.split(separator: "\n").count == 1, "a label forged a line: \(result.stdout)")
        #expect(result.stdout.contains("\\x1b[2J") && result.stdout.contains("\\u{202e}txt.exe\\nslot 9"), "\(result.stdout)")
    }

    @Test func execTSVEscapesValuesAndColumnNames() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let sql =
            "INSERT INTO t VALUES (char(27) || '[2J' || char(155) || char(8238) || char(127) || 'ok'); "
            + "SELECT x AS \"col\u{1B}[31m\" FROM t; SELECT CAST(x'41ff1b' AS TEXT) AS raw;"
        let result = try cli(["exec", "db.db", sql] + fast, stdin: password + "\n")
        #expect(result.status == 0, "\(result.output)")
        #expect(Self.controls(in: result.output).isEmpty, "raw controls: \(Self.controls(in: result.output))")
        #expect(result.stdout == "col\\x1b[31m\n\\x1b[2J\\u{9b}\\u{202e}\\x7fok\n\nraw\nA\\xff\\x1b\n", "\(result.stdout)")
    }

    @Test func infoShowsTableNamesEscaped() throws {
        try cli.createDatabase("CREATE TABLE \"t\u{1B}[2K\rforged: 0 rows\"(x)")
        let result = try cli(["info", "db.db", "--unlock"] + fast, stdin: password + "\n")
        #expect(result.status == 0, "\(result.output)")
        #expect(Self.controls(in: result.output).isEmpty, "raw controls: \(Self.controls(in: result.output))")
        #expect(result.stdout.contains("  t\\x1b[2K\\rforged: 0 rows: 0 rows"), "\(result.stdout)")
    }

    @Test func errorsShowSQLAndFileNamesEscaped() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let badSQL = try cli(["exec", "db.db", "SELECT * FROM \"\u{1B}]0;owned\u{07}\""] + fast, stdin: password + "\n")
        #expect(badSQL.status == 1, "\(badSQL.output)")
        #expect(badSQL.stderr.contains("\\x1b]0;owned\\x07"), "\(badSQL.stderr)")
        let missing = try cli(["verify", "gone\u{1B}[2J\u{9B}\n.db"] + fast, stdin: password + "\n")
        #expect(missing.status == 5, "\(missing.output)")
        #expect(missing.stderr.contains("gone\\x1b[2J\\u{9b}\\n.db"), "\(missing.stderr)")
        for result in [badSQL, missing] {
            #expect(Self.controls(in: result.output).isEmpty, "raw controls: \(Self.controls(in: result.output))")
            #expect(result.stderr.split(separator: "\n").count == 1, "a name forged a line: \(result.stderr)")
        }
    }

    @Test func jsonMarksTextThatIsNotUTF8AndEscapesControls() throws {
        try cli.createDatabase("SELECT 1")
        let sql = "SELECT CAST(x'41ff' AS TEXT) AS bad, x'41ff' AS blob, char(27) || char(155) || char(8238) AS ctl"
        let result = try cli(["exec", "db.db", sql, "--json"] + fast, stdin: password + "\n")
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.stdout
                == "[\n{\"bad\":{\"base64\":\"Qf8=\",\"invalidUTF8\":true},\"blob\":{\"base64\":\"Qf8=\"},\"ctl\":\"\\u001b\\u009b\\u202e\"}\n]\n",
            "\(result.stdout)")
        #expect(!result.stdout.contains("\u{FFFD}"))
    }
}
