import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Our files against the Debian `sqlcipher` shell, an independent client of the linked
/// SQLCipher's version (4.6.1 or 3.4.1): what we create, rekey and encrypt opens there; what it
/// creates opens here. Across versions, in the SQLCipher 3 format: what we write in it opens in
/// the other version's shell (with 4.x linked: `CipherOptions` compatibility 3, read by the 3.4.1
/// shell; with 3.4.1 linked: our own files, read by the 4.x shell after
/// `cipher_compatibility = 3`), and what that shell writes in it opens here. The key is given in
/// the script on standard input, never on the command line.
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

    /// The shell's lines for `script`, after `PRAGMA key` and `settings` (by default what the
    /// shell of the linked version needs for our files: the tests' KDF iterations).
    static func shellLines(
        _ url: URL, key: String, settings: [String] = CipherFormat.shellPragmas(), _ script: String, shell: URL? = nil
    ) throws -> [String] {
        let text = ([shellKey(key)] + settings + [script]).joined(separator: "\n") + "\n"
        let output = try shell.map { try sqlcipherShell($0, url.path, text) } ?? sqlcipherShell(url.path, text)
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
        try manager.rekey(to: .password("new-secret"), options: .fast(kdfIterations: 6000, pageSize: 2048))
        let settings = CipherFormat.shellPragmas(kdfIterations: 6000, pageSize: 2048)
        #expect(try Self.shellLines(url, key: "'new-secret'", settings: settings, Self.query + ";") == Self.ourLines(manager))
        let old = try sqlcipherShell(
            url.path, shellKey("'old-secret'") + settings.joined(separator: "\n") + "\nSELECT count(*) FROM book;\n")
        #expect(old.status != 0)
        #expect(old.stderr.contains(notADatabase))
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
        #expect(output.stderr.contains(notADatabase))
    }

    @Test func aDatabaseTheShellCreatesOpensInOurs() throws {
        let dir = TemporaryDirectory()
        let script = """
            \(shellKey("'shell ''secret'''"))
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

    // MARK: - Across versions, in the SQLCipher 3 format

    /// The other version's shell, its major version, and the options that make us write the
    /// SQLCipher 3 format: on 4.x `cipher_compatibility = 3`, on 3.x our defaults (both with
    /// the tests' KDF iterations).
    static func otherShell() throws -> (shell: URL, major: Int, ours: CipherOptions) {
        // Debian 12's 3.4.1 exists on Debian 12 only: where `make test` could not unpack it
        // (no .build/sqlcipher3), the 4.x leg has no 3.x client and skips, saying so.
        let unpacked = FileManager.default.fileExists(atPath: Interop.repository.appendingPathComponent(".build/sqlcipher3").path)
        if Interop.otherVersionShell == nil, CipherFormat.linkedMajor >= 4, !unpacked {
            try Test.cancel("skipped: no SQLCipher 3.4.1 shell on this system (Debian 12 only; README, Testing)")
        }
        let shell = try Interop.require(Interop.otherVersionShell, "the sqlcipher shell of the other major version")
        let major = try #require(Interop.shellCipherVersion(shell)).major
        #expect((major >= 4) != (CipherFormat.linkedMajor >= 4), "the other shell runs SQLCipher \(major)")
        var options = CipherOptions.fast()
        if CipherFormat.linkedMajor >= 4 { options.compatibility = 3 }
        return (shell, major, options)
    }

    @Test func aDatabaseWeWriteInTheSQLCipher3FormatOpensInTheOtherVersionsShell() throws {
        let (shell, major, options) = try Self.otherShell()
        let dir = TemporaryDirectory()
        let manager = dir.manager { $0.cipher = options }
        try manager.create(password: "it's three")
        try manager.withDatabase { try RichDatabase.populate($0, rows: Self.rows) }
        let key = sqlLiteral("it's three")
        let settings = CipherFormat.pragmas(client: major, format: 3).map { $0 + ";" }
        let ours = try Self.ourLines(manager)
        #expect(ours.count == Self.rows)
        #expect(try Self.shellLines(dir.file(), key: key, settings: settings, Self.query + ";", shell: shell) == ours)
        #expect(try Self.shellLines(dir.file(), key: key, settings: settings, "PRAGMA integrity_check;", shell: shell) == ["ok"])
        // The settings matter: without them that shell reads nothing.
        let bare = try sqlcipherShell(shell, dir.file().path, shellKey(key) + "SELECT count(*) FROM book;\n")
        #expect(bare.status != 0 && bare.stderr.contains(notADatabase), "\(bare.stdout) \(bare.stderr)")
    }

    @Test func aDatabaseTheOtherVersionsShellWritesInTheSQLCipher3FormatOpensInOurs() throws {
        let (shell, major, options) = try Self.otherShell()
        let dir = TemporaryDirectory()
        let lines =
            [shellKey("'from the other shell'")] + CipherFormat.pragmas(client: major, format: 3).map { $0 + ";" } + [
                "CREATE TABLE t(a INTEGER, b TEXT, c REAL, d BLOB);",
                "INSERT INTO t VALUES (7, 'version \(major)', 0.5, x'0a0b');",
                "PRAGMA user_version = 9;",
            ]
        let output = try sqlcipherShell(shell, dir.file().path, lines.joined(separator: "\n") + "\n")
        try #require(output.status == 0, "sqlcipher \(major): \(output.stderr)")
        let manager = dir.manager { $0.cipher = options }
        try manager.open(password: "from the other shell")
        #expect(
            try manager.fetchAll("SELECT * FROM t").map(\.values)
                == [[.integer(7), .text("version \(major)"), .real(0.5), .blob(Data([10, 11]))]])
        #expect(try manager.schemaVersion == 9)
        #expect(try manager.integrityProblems().isEmpty)
    }
}
