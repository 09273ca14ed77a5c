import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Our files against the Debian `sqlcipher` shell, an independent client of the same SQLCipher
/// 3.4.1: what we create, rekey and encrypt opens there; what it creates opens here. The key is
/// given in the script on standard input, never on the command line.
///
/// Under `make test` (`SCM_REQUIRE_INTEROP=1`) a missing shell fails these tests; a plain
/// `swift test` skips them with the reason.
@Suite(.ownThread) struct CLIInteropTests {
    /// Every column as an SQL literal (`quote()`), so both sides print the same text.
    static let query = "SELECT quote(id), quote(author_id), quote(title), quote(pages), quote(cover) FROM book ORDER BY id"
    static let rows = 60

    /// Our lines for ``query``, `|`-separated like the shell's list mode.
    static func ourLines(_ manager: DatabaseManager) throws -> [String] {
        try manager.fetchAll(query).map { row in
            row.values.map { value in if case .text(let text) = value { text } else { "\(value)" } }.joined(separator: "|")
        }
    }

    /// The shell's lines for `script`, after `PRAGMA key` and `settings`.
    static func shellLines(_ url: URL, key: String, settings: [String] = ["PRAGMA kdf_iter = 4000;"], _ script: String) throws -> [String] {
        let output = try sqlcipherShell(url.path, (["PRAGMA key = \(key);"] + settings + [script]).joined(separator: "\n") + "\n")
        #expect(output.status == 0, "sqlcipher: \(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init)
    }

    @Test func aDatabaseWeCreateOpensInTheShell() throws {
        let dir = TemporaryDirectory()
        let password = "it's \"quoted\" 🔐"
        let url = try RichDatabase.makeEncrypted(in: dir, password: password, rows: Self.rows)
        let manager = dir.manager()
        try manager.open(password: password)
        let ours = try Self.ourLines(manager)
        #expect(ours.count == Self.rows)
        #expect(try Self.shellLines(url, key: sqlLiteral(password), Self.query + ";") == ours)
        #expect(
            try Self.shellLines(url, key: sqlLiteral(password), "PRAGMA user_version; PRAGMA integrity_check;")
                == ["\(RichDatabase.userVersion)", "ok"])
    }

    @Test func aDatabaseWeCreateWithARawKeyOpensInTheShell() throws {
        let dir = TemporaryDirectory()
        let key = Data((0..<32).map { UInt8($0 * 11 % 256) })
        let manager = try makeRichDatabase(in: dir, rawKey: key, rows: Self.rows)
        let hex = key.map { String(format: "%02x", $0) }.joined()
        #expect(try Self.shellLines(dir.file(), key: "\"x'\(hex)'\"", settings: [], Self.query + ";") == Self.ourLines(manager))
    }

    @Test func aDatabaseWeRekeyOpensInTheShellWithTheNewKeyOnly() throws {
        let dir = TemporaryDirectory()
        let url = try RichDatabase.makeEncrypted(in: dir, rows: Self.rows)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        try manager.rekey(password: "new-secret", options: .fast(kdfIterations: 6000, pageSize: 2048))
        let settings = ["PRAGMA kdf_iter = 6000;", "PRAGMA cipher_page_size = 2048;"]
        #expect(try Self.shellLines(url, key: "'new-secret'", settings: settings, Self.query + ";") == Self.ourLines(manager))
        let old = try sqlcipherShell(
            url.path, "PRAGMA key = 'old-secret';\n" + settings.joined(separator: "\n") + "\nSELECT count(*) FROM book;\n")
        #expect(old.status != 0)
        #expect(old.stderr.contains("not a database"))
    }

    @Test func aPlaintextDatabaseWeEncryptOpensInTheShell() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file(), rows: Self.rows)
        try DatabaseTools.encryptPlaintextDatabase(at: dir.file(), password: "secret", configuration: dir.manager().configuration)
        let manager = dir.manager()
        try manager.open(password: "secret")
        #expect(try Self.shellLines(dir.file(), key: "'secret'", Self.query + ";") == Self.ourLines(manager))
    }

    @Test func withoutTheKeyTheShellCannotReadOurDatabase() throws {
        let dir = TemporaryDirectory()
        let url = try RichDatabase.makeEncrypted(in: dir, rows: 5)
        let output = try sqlcipherShell(url.path, "SELECT count(*) FROM sqlite_master;\n")
        #expect(output.status != 0)
        #expect(output.stderr.contains("file is encrypted or is not a database"))
    }

    @Test func aDatabaseTheShellCreatesOpensInOurs() throws {
        let dir = TemporaryDirectory()
        let script = """
            PRAGMA key = 'shell ''secret''';
            PRAGMA kdf_iter = 4000;
            CREATE TABLE t(a INTEGER, b TEXT, c REAL, d BLOB);
            INSERT INTO t VALUES (42, 'from the shell', 1.25, x'00ff10');
            PRAGMA user_version = 3;
            """
        let output = try sqlcipherShell(dir.file().path, script + "\n")
        #expect(output.status == 0, "sqlcipher: \(output.stderr)")
        let manager = dir.manager()
        try manager.open(password: "shell 'secret'")
        #expect(
            try manager.fetchAll("SELECT * FROM t").map(\.values)
                == [[.integer(42), .text("from the shell"), .real(1.25), .blob(Data([0, 255, 16]))]])
        #expect(try manager.schemaVersion == 3)
    }
}
