import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `CipherOptions.plaintextHeader`: on SQLCipher 4 the file's first 32 bytes stay plaintext and
/// the manager keeps the salt in `<db>.scm-salt`; on SQLCipher 3 asking for it is a typed error.
@Suite("Plaintext header: the salt kept beside the database", .ownThread)
struct PlaintextHeaderTests {
    static let magic = Array("SQLite format 3".utf8) + [0]
    static var headerOptions: CipherOptions {
        var options = CipherOptions.fast()
        options.plaintextHeader = true
        return options
    }

    static func manager(_ dir: TemporaryDirectory, _ name: String = "test.db", header: Bool = true) -> DatabaseManager {
        dir.manager(name) { $0.cipher.plaintextHeader = header }
    }

    static func fill(_ manager: DatabaseManager, rows: Int = 50) throws {
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        for index in 0..<rows { try manager.execute("INSERT INTO item(name) VALUES (?)", "row-\(index)") }
    }

    static func rows(_ manager: DatabaseManager) throws -> [String] {
        try manager.readSync { try $0.fetchAll("SELECT name FROM item ORDER BY id").map { $0.text(0) ?? "" } }
    }

    static func saltFile(_ url: URL) -> String { url.path + ".scm-salt" }

    static func storedSalt(_ url: URL) throws -> [UInt8] { try HeaderSaltFile.read(for: url.path) }

    @Test("created in the header form: SQLite's header on disk, the salt beside it, reopened and read by readers")
    func createOpenRead() throws {
        guard LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let url = dir.file()
        let manager = Self.manager(dir)
        try manager.create(password: "secret")
        try Self.fill(manager)
        let expected = try Self.rows(manager)
        #expect(expected.count == 50)
        #expect(Array(Fixture.bytes(url).prefix(16)) == Self.magic)
        #expect(Fixture.bytes(url).range(of: Data("row-1".utf8)) == nil)
        let salt = try Self.storedSalt(url)
        let reported = try manager.readSync { try $0.scalar(String.self, "PRAGMA cipher_salt") }
        #expect(reported?.lowercased() == salt.map { String(format: "%02x", $0) }.joined())
        #expect(DatabaseFile(path: url.path).kind() == .encryptedOrNotADatabase)
        manager.close()
        // The form is read from the file: a manager without the option opens it too.
        for header in [true, false] {
            let again = Self.manager(dir, header: header)
            try again.open(password: "secret")
            #expect(try Self.rows(again) == expected)
            again.close()
        }
    }

    @Test("re-keys in place and with new settings, keeping the salt file and every row")
    func rekeys() throws {
        guard LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let url = dir.file()
        let manager = Self.manager(dir)
        try manager.create(password: "secret")
        try Self.fill(manager)
        let expected = try Self.rows(manager)
        let salt = try Self.storedSalt(url)
        try manager.rekey(to: .password("second"))
        var options = Self.headerOptions
        options.kdfIterations = 8000
        try manager.rekey(to: .password("third"), options: options)
        #expect(try Self.rows(manager) == expected)
        #expect(try Self.storedSalt(url) == salt)
        #expect(Array(Fixture.bytes(url).prefix(16)) == Self.magic)
        manager.close()
        let again = dir.manager(kdfIterations: 8000) { $0.cipher.plaintextHeader = true }
        #expect(thrownCase { try again.open(password: "second") } == "headerSaltUnusable")
        try again.open(password: "third")
        #expect(try Self.rows(again) == expected)
        again.close()
    }

    @Test("backs up: the same form with its own salt, or the usual form; both open")
    func backsUp() throws {
        guard LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let manager = Self.manager(dir)
        try manager.create(password: "secret")
        try Self.fill(manager)
        let expected = try Self.rows(manager)
        try manager.backup(to: dir.file("same.db"))
        var plain = Self.headerOptions
        plain.plaintextHeader = false
        try manager.backup(to: dir.file("usual.db"), options: plain)
        manager.close()
        #expect(Array(Fixture.bytes(dir.file("same.db")).prefix(16)) == Self.magic)
        #expect(try Self.storedSalt(dir.file("same.db")) != Self.storedSalt(dir.file()))
        #expect(Array(Fixture.bytes(dir.file("usual.db")).prefix(16)) != Self.magic)
        #expect(!FileManager.default.fileExists(atPath: Self.saltFile(dir.file("usual.db"))))
        for name in ["same.db", "usual.db"] {
            let copy = Self.manager(dir, name, header: false)
            try copy.open(password: "secret")
            #expect(try Self.rows(copy) == expected)
            copy.close()
        }
    }

    @Test("converts to the header form and back, keeping the salt and every row", arguments: [JournalMode.delete, .wal])
    func convertsBothWays(_ mode: JournalMode) throws {
        guard LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let url = dir.file()
        let manager = dir.manager { $0.journalMode = mode }
        try manager.create(password: "secret")
        try Self.fill(manager, rows: 300)
        let expected = try Self.rows(manager)
        let salt = Array(Fixture.bytes(url).prefix(16))
        #expect(try manager.convertPlaintextHeader(true))
        #expect(Array(Fixture.bytes(url).prefix(16)) == Self.magic)
        #expect(try Self.storedSalt(url) == salt)
        #expect(try Self.rows(manager) == expected)
        try manager.execute("INSERT INTO item(name) VALUES ('after')")
        #expect(try manager.convertPlaintextHeader(true) == false)
        manager.close()
        let reopened = dir.manager()
        try reopened.open(password: "secret")
        #expect(try Self.rows(reopened) == expected + ["after"])
        #expect(try reopened.readSync { try $0.scalar(String.self, "PRAGMA journal_mode") } == mode.rawValue.lowercased())
        #expect(try reopened.convertPlaintextHeader(false))
        #expect(Array(Fixture.bytes(url).prefix(16)) == salt)
        #expect(!FileManager.default.fileExists(atPath: Self.saltFile(url)))
        #expect(try Self.rows(reopened) == expected + ["after"])
        reopened.close()
        let last = dir.manager()
        try last.open(password: "secret")
        #expect(try Self.rows(last) == expected + ["after"])
        last.close()
    }

    @Test("a missing, damaged or foreign salt file is a typed error naming it; the files stay as they were")
    func badSaltFiles() throws {
        guard LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let url = dir.file()
        let manager = Self.manager(dir)
        try manager.create(password: "secret")
        try Self.fill(manager)
        manager.close()
        let other = Self.manager(dir, "other.db")
        try other.create(password: "secret")
        other.close()
        let saltFile = Self.saltFile(url)
        let good = try Data(contentsOf: URL(fileURLWithPath: saltFile))
        let before = Fixture.bytes(url)
        let cases: [(Data?, HeaderSaltProblem)] = [
            (nil, .missing),
            (Data("not a salt\n".utf8), .damaged(reason: "it does not hold 32 hex digits")),
            (try Data(contentsOf: URL(fileURLWithPath: Self.saltFile(dir.file("other.db")))), .rejected),
        ]
        for (content, problem) in cases {
            try? FileManager.default.removeItem(atPath: saltFile)
            if let content { try content.write(to: URL(fileURLWithPath: saltFile)) }
            for header in [true, false] {
                let attempt = Self.manager(dir, header: header)
                let error = thrownError { try attempt.open(password: "secret") } as? DatabaseManagerError
                #expect(error == .headerSaltUnusable(path: url.path, saltFile: saltFile, problem: problem), "\(problem)")
                #expect(error.map { "\($0)" }?.contains(saltFile) == true)
                #expect(Fixture.bytes(url) == before)
            }
        }
        try good.write(to: URL(fileURLWithPath: saltFile))
        let restored = Self.manager(dir)
        try restored.open(password: "secret")
        #expect(try Self.rows(restored).count == 50)
        restored.close()
    }

    @Test("on SQLCipher 3 the option is a typed error and no file is written")
    func sqlcipher3Refuses() throws {
        guard !LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let linked = try #require(LinkedLibrary.cipherVersion)
        let expected = DatabaseManagerError.unsupportedOption(name: "plaintextHeader", requires: SQLCipherVersion(4, 0, 0), linked: linked)
        let manager = Self.manager(dir)
        #expect(thrownError { try manager.create(password: "secret") } as? DatabaseManagerError == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
        #expect("\(expected)".contains("SQLCipher 4.0.0"))
        let usual = dir.manager()
        try usual.create(password: "secret")
        try Self.fill(usual)
        let before = Fixture.bytes(dir.file())
        #expect(thrownError { try usual.convertPlaintextHeader(true) } as? DatabaseManagerError == expected)
        #expect(Fixture.bytes(dir.file()) == before)
        #expect(!FileManager.default.fileExists(atPath: Self.saltFile(dir.file())))
        #expect(try Self.rows(usual).count == 50)
        usual.close()
    }
}

extension PlaintextHeaderTests {
    @Test("a plaintext database is encrypted into the header form, in place and into a new file", arguments: [false, true])
    func encryptsIntoTheHeaderForm(_ inPlace: Bool) throws {
        guard LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let source = dir.file("plain.db")
        try Fixture.makePlaintextDatabase(at: source, rows: 5)
        let target = inPlace ? source : dir.file("encrypted.db")
        var configuration = DatabaseConfiguration(cipher: Self.headerOptions)
        configuration.cipher.plaintextHeader = true
        try DatabaseTools.encryptPlaintextDatabase(
            at: source, to: inPlace ? nil : target, rawKey: Data(repeating: 7, count: 32), configuration: configuration)
        #expect(Array(Fixture.bytes(target).prefix(16)) == Self.magic)
        #expect(Fixture.bytes(target).range(of: Data("plain-1".utf8)) == nil)
        #expect(FileManager.default.fileExists(atPath: Self.saltFile(target)))
        #expect(!FileManager.default.fileExists(atPath: Self.saltFile(source)) || inPlace)
        let manager = DatabaseManager(url: target)
        try manager.open(.rawKey(Data(repeating: 7, count: 32)))
        #expect(try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM item") } == 5)
        manager.close()
    }

    @Test("a plaintext file with a stray salt file beside it is still a plaintext file")
    func strayedSaltFileOnAPlaintextFile() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("plain.db")
        try Fixture.makePlaintextDatabase(at: url)
        try HeaderSaltFile.write(KeyDerivation.newSalt(), for: url.path)
        #expect(DatabaseFile(path: url.path).kind() == .plaintextSQLite)
        let manager = dir.manager("plain.db")
        #expect(thrownCase { try manager.open(password: "secret") } == "plaintextDatabase")
    }
}
