import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// An empty password or key never reaches SQLCipher: 3.4.1 reads an empty key as "no
/// encryption" and 4.5.5+ refuses it with an error of its own, so the library refuses it first,
/// with the same typed error on both, and no file changes.
@Suite struct EmptyKeyTests {
    @Test func anEmptyPasswordOpensNothingAndIsNeverTried() throws {
        let dir = TemporaryDirectory()
        let url = try Fixture.makeEncryptedDatabase(in: dir)
        let before = FileSnapshot(dir.url)
        let manager = dir.manager()
        #expect(thrownCase { try manager.open(password: "") } == "incorrectPasswordOrSettings")
        #expect(thrownCase { try manager.open(.password(SecretBytes(password: ""))) } == "incorrectPasswordOrSettings")
        #expect(!manager.isOpen)
        #expect(throws: DatabaseManagerError.incorrectPasswordOrSettings(path: url.path)) {
            _ = try manager.diagnoseCipherSettings(password: "")
        }
        #expect(throws: DatabaseManagerError.incorrectPasswordOrSettings(path: url.path)) {
            _ = try manager.diagnoseCipherSettings(password: SecretBytes(password: ""), alsoTrying: DatabaseTools.knownCipherSettings)
        }
        #expect(thrownCase { try manager.open(.rawKey(Data())) } == "invalidKeyLength")
        #expect(FileSnapshot(dir.url) == before, "\(FileSnapshot(dir.url).differences(from: before))")
        try manager.open(password: "secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM item") == 3)
    }

    @Test func anEmptyPasswordCreatesNothingAndIsNoNewPassword() throws {
        let dir = TemporaryDirectory()
        let fresh = dir.manager()
        #expect(thrownCase { try fresh.create(password: "") } == "invalidPassword")
        #expect(thrownCase { try fresh.create(.password(SecretBytes(password: ""))) } == "invalidPassword")
        #expect(thrownCase { try fresh.create(.rawKey(Data())) } == "invalidKeyLength")
        #expect(!FileManager.default.fileExists(atPath: dir.file().path))

        _ = try Fixture.makeEncryptedDatabase(in: dir)
        let before = Fixture.bytes(dir.file())
        let manager = dir.manager()
        try manager.open(password: "secret")
        #expect(thrownCase { try manager.rekey(to: .password("")) } == "invalidPassword")
        #expect(thrownCase { try manager.rekey(to: .password(SecretBytes(password: ""))) } == "invalidPassword")
        #expect(!manager.isCurrentPassword(""))
        #expect(manager.isCurrentPassword("secret"))
        manager.close()
        #expect(Fixture.bytes(dir.file()) == before)
        let reopened = dir.manager()
        try reopened.open(password: "secret")
        #expect(try reopened.scalar(Int.self, "SELECT count(*) FROM item") == 3)
    }
}
