import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Key derivation: SQLCipher's PBKDF2 done once, by the library", .ownThread)
struct KeyDerivationTests {
    @Test("the derived raw key opens a file the stock sqlcipher shell made with the password")
    func derivedKeyOpensAShellFile() throws {
        let shell = try Interop.require(Interop.sqlcipherShell, "the sqlcipher shell")
        let dir = TemporaryDirectory()
        let path = dir.file("shell.db").path
        let made = try runProcess(
            shell, [path, "PRAGMA key = 'shell-pw'; PRAGMA kdf_iter = 4000; CREATE TABLE t(x); INSERT INTO t VALUES (42);"])
        try #require(made.status == 0, "\(made.stderr)")
        let salt = try #require(KeyDerivation.salt(ofFileAt: path))
        let key = try #require(
            KeyDerivation.rawKey(
                password: SecretBytes(password: "shell-pw"), salt: salt, iterations: 4000, algorithm: .sha1))
        #expect(key.isRawKey && key.count == 99)

        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        try key.withBytes { try connection.key($0) }
        let statement = try connection.prepare("SELECT x FROM t")
        #expect(try statement.step() && statement.int64(at: 0) == 42)
    }

    @Test("a wrong password derives a key that does not open the file")
    func wrongPasswordDoesNotOpen() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "right-password")
        manager.close()
        let salt = try #require(KeyDerivation.salt(ofFileAt: dir.file().path))
        let key = try #require(
            KeyDerivation.rawKey(
                password: SecretBytes(password: "wrong-password"), salt: salt, iterations: 4000, algorithm: .sha1))
        let connection = try Connection(path: dir.file().path, mode: .readOnly)
        defer { connection.close() }
        try key.withBytes { try connection.key($0) }
        #expect(throws: SQLiteError.self) { try connection.executeScript("SELECT count(*) FROM sqlite_master") }
    }

    @Test("no salt for a plaintext or too-short file; fresh salts differ")
    func salts() throws {
        let dir = TemporaryDirectory()
        try Fixture.makePlaintextDatabase(at: dir.file("plain.db"))
        #expect(KeyDerivation.salt(ofFileAt: dir.file("plain.db").path) == nil)
        try Data(repeating: 1, count: 8).write(to: dir.file("short.db"))
        #expect(KeyDerivation.salt(ofFileAt: dir.file("short.db").path) == nil)
        #expect(KeyDerivation.newSalt() != KeyDerivation.newSalt())
    }
}
