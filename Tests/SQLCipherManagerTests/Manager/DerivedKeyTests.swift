import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("The key derived once: further connections need no PBKDF2", .ownThread)
struct DerivedKeyTests {
    @Test("after open, reopen is keyed with the derived raw key: it works even with kdf_iter now set wrong")
    func reopenUsesTheDerivedKey() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        try manager.execute("INSERT INTO t VALUES (1)")
        manager.close()
        try manager.open(password: "secret")
        #expect(manager.derivedKey != nil)
        // A raw key skips PBKDF2, so kdf_iter no longer matters to this manager's connections.
        manager.configuration.cipher.kdfIterations = 5000
        try manager.reopen()
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 1)
        manager.close()
        // A fresh open has no derived key for the file and must derive with the settings given.
        #expect(thrownCase { try manager.open(password: "secret") } == "incorrectPasswordOrSettings")
    }

    @Test("create keys the new file with a fresh salt, a rekey in place keeps it; the password opens it in the sqlcipher shell")
    func newFilesOpenWithThePasswordElsewhere() throws {
        let shell = try Interop.require(Interop.sqlcipherShell, "the sqlcipher shell")
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        try manager.execute("INSERT INTO t VALUES (42)")
        let firstSalt = try #require(KeyDerivation.salt(ofFileAt: dir.file().path))
        #expect(manager.derivedKey?.salt == firstSalt)
        let read = { (password: String) in
            try runProcess(shell, [dir.file().path, "PRAGMA key = '\(password)'; PRAGMA kdf_iter = 4000; SELECT x FROM t;"]).stdout
        }
        #expect(try read("secret").contains("42"))
        try manager.rekey(to: .password("other-secret"))
        #expect(manager.derivedKey?.salt == KeyDerivation.salt(ofFileAt: dir.file().path))
        // In place: the key is derived once for the file's own salt, which stays.
        #expect(manager.derivedKey?.salt == firstSalt)
        #expect(try read("other-secret").contains("42"))
        #expect(!(try read("secret").contains("42")))
    }

    @Test("a wrong password still says so (the derived key is refused, the password too)")
    func wrongPassword() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        manager.close(forgettingKey: false)
        #expect(thrownCase { try manager.open(password: "not-it") } == "incorrectPasswordOrSettings")
        // The key close(forgettingKey: false) kept is still the right one.
        try manager.openWithCachedKey()
        manager.close(forgettingKey: true)
        #expect(thrownCase { try manager.open(password: "not-it") } == "incorrectPasswordOrSettings")
        #expect(manager.derivedKey == nil)
    }

    @Test("with cipher_compatibility or a raw key nothing is derived; the normal keyed open works")
    func fallbacks() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(.rawKey(Data(repeating: 7, count: 32)))
        #expect(manager.derivedKey == nil)
        try manager.reopen()
        #expect(manager.isOpen)
    }

    @Test("the derived key's bytes are zeroed when the manager forgets the key")
    func derivedKeyIsWiped() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        let wiped = WipeRecord()
        do {
            let key = try #require(manager.derivedKey?.rawKey)
            key.wipeObserver = { bytes in wiped.allZero = bytes.allSatisfy { $0 == 0 } }
        }
        manager.close(forgettingKey: false)
        #expect(wiped.allZero == nil)
        manager.close()
        #expect(wiped.allZero == true)
    }
}

private final class WipeRecord: @unchecked Sendable {
    // @unchecked: written once by SecretBytes' deinit on this test's thread, read after.
    var allZero: Bool?
}
