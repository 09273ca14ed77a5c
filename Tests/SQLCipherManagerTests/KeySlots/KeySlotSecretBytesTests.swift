import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The key-slot calls that take a password in `SecretBytes` (what cipherdb hands them) behave
/// as their `String` twins: the same slots open, an NFD password is its NFC form, and a wrong
/// old password changes nothing.
@Suite struct KeySlotSecretBytesTests {
    /// "é" decomposed (e + U+0301): as a `String`, `SecretBytes(password:)` makes it NFC.
    static let decomposed = SecretBytes(copying: Array("caf\u{65}\u{301}-pass".utf8))

    @Test func secretBytesOverloadsCreateChangeAddConvertAndExport() throws {
        let dir = TemporaryDirectory()
        let manager = dir.keySlotManager()
        try manager.create(.password(Self.decomposed), keySlots: true)
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try manager.execute("INSERT INTO item(name) VALUES ('MARKER-0')")
        manager.close()
        #expect(itemCount(in: dir, password: "caf\u{e9}-pass") == "1")

        let changer = dir.keySlotManager()
        #expect(throws: DatabaseManagerError.self) {
            try changer.keySlots.change(
                password: SecretBytes(copying: Array("wrong-pass".utf8)), to: SecretBytes(copying: Array("x-pass".utf8)))
        }
        try changer.keySlots.change(password: Self.decomposed, to: SecretBytes(copying: Array("second-pass".utf8)))
        #expect(itemCount(in: dir, password: "caf\u{e9}-pass") == "incorrectPasswordOrSettings")
        #expect(itemCount(in: dir, password: "second-pass") == "1")

        try changer.open(password: "second-pass")
        let slot = try changer.keySlots.add(password: SecretBytes(copying: Array("third-pass".utf8)))
        #expect(slot.id == 2)
        let fromBytes = try changer.keySlots.exportDataKey(password: SecretBytes(copying: Array("third-pass".utf8)))
        #expect(fromBytes == (try changer.keySlots.exportDataKey(password: "second-pass")))
        changer.close()
        #expect(itemCount(in: dir, password: "third-pass") == "1")
    }

    @Test func convertToKeySlotsTakesTheDatabasePasswordAsSecretBytes() throws {
        let dir = TemporaryDirectory()
        _ = try Fixture.makeEncryptedDatabase(in: dir, password: "plain-pass")
        let manager = dir.keySlotManager()
        try manager.open(password: "plain-pass")
        try manager.keySlots.enable(password: SecretBytes(copying: Array("plain-pass".utf8)))
        #expect(manager.keySlots.isEnabled)
        manager.close()
        #expect(FileManager.default.fileExists(atPath: dir.slotFile().path))
        let again = dir.keySlotManager()
        try again.open(password: "plain-pass")
        again.close()
    }
}
