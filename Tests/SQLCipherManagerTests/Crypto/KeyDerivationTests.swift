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
        let algorithm = try #require(LinkedLibrary.defaultKDFAlgorithm)
        try Self.expectDerivedKeyReads42(path, password: "shell-pw", iterations: 4000, algorithm: algorithm)
    }

    @Test("with no settings given the derivation is the linked SQLCipher's default KDF (4.x: SHA-512, 256,000 rounds)")
    func defaultDerivationIsTheLinkedLibrarys() throws {
        let shell = try Interop.require(Interop.sqlcipherShell, "the sqlcipher shell")
        let dir = TemporaryDirectory()
        let path = dir.file("shell.db").path
        let made = try runProcess(shell, [path, "PRAGMA key = 'shell-pw'; CREATE TABLE t(x); INSERT INTO t VALUES (42);"])
        try #require(made.status == 0, "\(made.stderr)")
        let algorithm = try #require(LinkedLibrary.defaultKDFAlgorithm)
        let iterations = try #require(LinkedLibrary.defaultKDFIterations)
        let v4 = CipherFormat.linkedMajor >= 4
        #expect(algorithm == (v4 ? .sha512 : .sha1))
        #expect(iterations == (v4 ? 256_000 : 64_000))
        try Self.expectDerivedKeyReads42(path, password: "shell-pw", iterations: iterations, algorithm: algorithm)
        // Another hash gives another key, which the file refuses (the check above can fail).
        let other: KDFAlgorithm = algorithm == .sha1 ? .sha512 : .sha1
        #expect(throws: SQLiteError.self) {
            try Self.expectDerivedKeyReads42(path, password: "shell-pw", iterations: iterations, algorithm: other)
        }
    }

    /// Keys a connection to `path` with the raw key derived here and reads `t`'s 42.
    static func expectDerivedKeyReads42(_ path: String, password: String, iterations: Int, algorithm: KDFAlgorithm) throws {
        let salt = try #require(KeyDerivation.salt(ofFileAt: path))
        let key = try #require(
            KeyDerivation.rawKey(password: SecretBytes(password: password), salt: salt, iterations: iterations, algorithm: algorithm))
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
        let algorithm = try #require(LinkedLibrary.defaultKDFAlgorithm)
        let key = try #require(
            KeyDerivation.rawKey(password: SecretBytes(password: "wrong-password"), salt: salt, iterations: 4000, algorithm: algorithm))
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
