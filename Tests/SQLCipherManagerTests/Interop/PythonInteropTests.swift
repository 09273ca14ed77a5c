import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Our files against Python's `sqlcipher3` (SQLCipher 4.x, PyPI) and stock SQLite (Python's
/// `sqlite3`): what we create, rekey and encrypt opens there with the settings of our format
/// (``CipherFormat``: the 4.x format with 4.x linked, `cipher_compatibility = 3` with 3.x),
/// files in the SQLCipher 3 format open both ways, what they create opens here, a file with
/// other KDF settings gets our typed error, and a decrypted copy opens in stock SQLite.
///
/// Needs the `.venv` of `scripts/ensure-interop-venv.sh`: under `make test`
/// (`SCM_REQUIRE_INTEROP=1`) a missing one fails these tests; a plain `swift test` skips them
/// with the reason.
@Suite(.ownThread) struct PythonInteropTests {
    /// What both sides read from a ``RichDatabase`` and must agree on, value for value.
    static let queries = [
        "SELECT id, author_id, title, pages, cover FROM book ORDER BY id",
        "SELECT name, weight FROM tag ORDER BY name",
        "SELECT title FROM long_books ORDER BY title",
        "SELECT id, event FROM audit ORDER BY id",
        "PRAGMA user_version",
        "PRAGMA application_id",
    ]

    static let rows = 120

    /// Our manager's answers to ``queries``.
    static func ourRows(_ manager: DatabaseManager) throws -> [[[DatabaseValue]]] {
        try queries.map { try manager.fetchAll($0).map(\.values) }
    }

    /// Python's answers to ``queries``.
    static func pythonRows(
        _ url: URL, key: PythonRequest.Key?, pragmas: [String] = PythonRequest.ourSettings,
        driver: PythonRequest.Driver = .sqlcipher3
    ) throws -> [[[DatabaseValue]]] {
        var request = PythonRequest(driver: driver, path: url.path, key: key, pragmas: pragmas)
        request.statements = queries.map { ($0, []) }
        return try request.rows()
    }

    // MARK: - Ours, read by Python

    static let passwords = ["secret", "it's a \"café\" 🔐 with \\ and spaces "]

    @Test(arguments: passwords)
    func aDatabaseWeCreateOpensInPython(_ password: String) throws {
        let dir = TemporaryDirectory()
        let url = try RichDatabase.makeEncrypted(in: dir, password: password, rows: Self.rows)
        let manager = dir.manager()
        try manager.open(password: password)
        let ours = try Self.ourRows(manager)
        #expect(ours[0].count == Self.rows)
        #expect(try Self.pythonRows(url, key: .password(password)) == ours)
    }

    @Test func aDatabaseWeCreateWithARawKeyOpensInPython() throws {
        let dir = TemporaryDirectory()
        let key = Data((0..<32).map { UInt8($0 * 7 % 256) })
        let manager = try makeRichDatabase(in: dir, rawKey: key, rows: Self.rows)
        // A raw key skips PBKDF2, so kdf_iter does not matter; the format sets page and HMAC.
        #expect(
            try Self.pythonRows(dir.file(), key: .raw(key), pragmas: CipherFormat.pragmas(client: 4, kdfIterations: nil))
                == Self.ourRows(manager))
    }

    @Test func aPasswordTypedDecomposedIsTheComposedKeyForOtherClients() throws {
        // We normalise passwords to NFC; a client that sends the NFD bytes has another key.
        let dir = TemporaryDirectory()
        let url = try RichDatabase.makeEncrypted(in: dir, password: "cafe\u{301}", rows: 5)
        #expect(try Self.pythonRows(url, key: .password("caf\u{E9}"))[0].count == 5)
        let nfd = PythonRequest(
            path: url.path, key: .password("cafe\u{301}"), pragmas: PythonRequest.ourSettings,
            statements: [("SELECT count(*) FROM book", [])])
        #expect(throws: PythonFailure.self) { try nfd.rows() }
    }

    @Test func aDatabaseWeRekeyWithOtherSettingsOpensInPython() throws {
        let dir = TemporaryDirectory()
        _ = try RichDatabase.makeEncrypted(in: dir, rows: Self.rows)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        try manager.rekey(to: .password("new 'secret'"), options: .fast(kdfIterations: 8000, pageSize: 4096))
        let ours = try Self.ourRows(manager)
        let settings = CipherFormat.pragmas(client: 4, kdfIterations: 8000, pageSize: 4096)
        #expect(try Self.pythonRows(dir.file(), key: .password("new 'secret'"), pragmas: settings) == ours)
        let oldKey = PythonRequest(
            path: dir.file().path, key: .password("old-secret"), pragmas: settings,
            statements: [("SELECT count(*) FROM book", [])])
        #expect(throws: PythonFailure.self) { try oldKey.rows() }
    }

    @Test func aPlaintextDatabaseWeEncryptInPlaceOpensInPython() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file(), rows: Self.rows)
        let plain = try Self.pythonRows(dir.file(), key: nil, pragmas: [], driver: .sqlite3)
        try DatabaseTools.encryptPlaintextDatabase(
            at: dir.file(), password: "secret", configuration: dir.manager().configuration)
        #expect(try Self.pythonRows(dir.file(), key: .password("secret")) == plain)
        #expect(throws: PythonFailure.self) { try Self.pythonRows(dir.file(), key: nil, pragmas: [], driver: .sqlite3) }
    }

    @Test func ourDecryptedCopyOpensInStockSQLiteAndTheOriginalDoesNot() throws {
        let dir = TemporaryDirectory()
        let url = try RichDatabase.makeEncrypted(in: dir, rows: Self.rows)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        try manager.decrypt(to: dir.file("plain.sqlite"))
        #expect(try Self.pythonRows(dir.file("plain.sqlite"), key: nil, pragmas: [], driver: .sqlite3) == Self.ourRows(manager))
        let stock = PythonRequest(driver: .sqlite3, path: url.path, statements: [("SELECT count(*) FROM book", [])])
        guard case .failure(let failure) = try stock.run() else {
            Issue.record("stock SQLite read the encrypted file")
            return
        }
        #expect(failure.message.contains("not a database"))
    }

    // MARK: - Python's, read by us

    @Test func aDatabasePythonCreatesWithOurSettingsOpensInOurs() throws {
        let dir = TemporaryDirectory()
        let values: [[DatabaseValue]] = [
            [.integer(1), .text("plain"), .real(2.5), .blob(Data([0, 1, 2, 255])), .null],
            [.integer(-9_007_199_254_740_993), .text("ünïcødé 🔐 'q'"), .real(-0.0), .blob(Data()), .integer(0)],
        ]
        var create = PythonRequest(path: dir.file().path, key: .password("py 'secret'"), pragmas: PythonRequest.ourSettings)
        create.statements =
            [("CREATE TABLE v(a, b, c, d, e)", []), ("PRAGMA user_version = 5", [])]
            + values.map { ("INSERT INTO v VALUES (?, ?, ?, ?, ?)", $0) }
        _ = try create.rows()
        let manager = dir.manager()
        try manager.open(password: "py 'secret'")
        #expect(try manager.fetchAll("SELECT * FROM v ORDER BY rowid").map(\.values) == values)
        #expect(try manager.schemaVersion == 5)
        #expect(try manager.integrityProblems().isEmpty)
    }

    @Test func aDatabasePythonCreatesWithARawKeyOpensInOurs() throws {
        let dir = TemporaryDirectory()
        let key = Data((0..<32).map { UInt8(255 - $0) })
        var create = PythonRequest(path: dir.file().path, key: .raw(key), pragmas: CipherFormat.pragmas(client: 4, kdfIterations: nil))
        create.statements = [("CREATE TABLE t(x)", []), ("INSERT INTO t VALUES ('raw')", [])]
        _ = try create.rows()
        let manager = dir.manager()
        try manager.open(.rawKey(key))
        #expect(try manager.scalar(String.self, "SELECT x FROM t") == "raw")
    }

    // MARK: - The SQLCipher 3 format, both ways

    /// The options that make us read and write the SQLCipher 3 format: `cipher_compatibility = 3`
    /// on 4.x, the defaults on 3.x (with the tests' KDF iterations).
    static var sqlcipher3Format: CipherOptions {
        var options = CipherOptions.fast()
        if CipherFormat.linkedMajor >= 4 { options.compatibility = 3 }
        return options
    }

    @Test func aDatabaseWeWriteInTheSQLCipher3FormatOpensInPythonWithCompatibility3() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager { $0.cipher = Self.sqlcipher3Format }
        try manager.create(password: "three")
        try manager.withDatabase { try RichDatabase.populate($0, rows: Self.rows) }
        let ours = try Self.ourRows(manager)
        let settings = CipherFormat.pragmas(client: 4, format: 3)
        #expect(try Self.pythonRows(dir.file(), key: .password("three"), pragmas: settings) == ours)
        // In the 3 format, not Python's own: without compatibility 3 it reads nothing.
        let bare = PythonRequest(
            path: dir.file().path, key: .password("three"), pragmas: CipherFormat.pragmas(client: 4, format: 4),
            statements: [("SELECT count(*) FROM book", [])])
        #expect(throws: PythonFailure.self) { try bare.rows() }
    }

    @Test func aDatabasePythonWritesWithCompatibility3OpensInOursInTheSQLCipher3Format() throws {
        let dir = TemporaryDirectory()
        var create = PythonRequest(path: dir.file().path, key: .password("py three"), pragmas: CipherFormat.pragmas(client: 4, format: 3))
        create.statements = [("CREATE TABLE t(x)", []), ("INSERT INTO t VALUES ('three')", []), ("PRAGMA user_version = 4", [])]
        _ = try create.rows()
        let manager = dir.manager { $0.cipher = Self.sqlcipher3Format }
        try manager.open(password: "py three")
        #expect(try manager.scalar(String.self, "SELECT x FROM t") == "three")
        #expect(try manager.schemaVersion == 4)
        #expect(try manager.integrityProblems().isEmpty)
    }

    // MARK: - Other settings

    @Test func aDatabaseWithSQLCipher4DefaultsIsRefusedWithATypedErrorAndLeftAsItIs() throws {
        let dir = TemporaryDirectory()
        var create = PythonRequest(path: dir.file().path, key: .password("secret"))
        create.statements = [("CREATE TABLE t(x)", []), ("INSERT INTO t VALUES ('v4')", [])]
        _ = try create.rows()
        let before = FileSnapshot(dir.url)
        #expect(thrownCase { try dir.manager().open(password: "secret") } == "incorrectPasswordOrSettings")
        #expect(FileSnapshot(dir.url) == before)
        // Python reads it back with its defaults: the file is sound, only the settings differ.
        let read = PythonRequest(path: dir.file().path, key: .password("secret"), statements: [("SELECT x FROM t", [])])
        #expect(try read.rows() == [[[.text("v4")]]])
    }

    @Test func theShippedSQLCipher4FixtureIsWhatItsRecipeSays() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.copyItem(at: Fixture.shipped("sqlcipher4-default.sqlcipher"), to: dir.file())
        let read = PythonRequest(
            path: dir.file().path, key: .password("secret"),
            statements: [("SELECT name FROM item ORDER BY id", [])])
        #expect(try read.rows() == [[[.text("v4-0")], [.text("v4-1")], [.text("v4-2")]]])
    }
}
