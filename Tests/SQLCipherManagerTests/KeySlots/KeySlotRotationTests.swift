import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Key slots: data-key rotation and conversion")
struct KeySlotRotationTests {
    @Test("rotation re-encrypts: every secret still opens, the old data key and an old slot file do not")
    func rotate() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager(rows: 200)
        try manager.keySlots.add(password: "second")
        let recovery = try manager.keySlots.addRecoveryKey()
        let oldKey = try manager.keySlots.exportDataKey(password: "secret")
        let oldSlots = Fixture.bytes(dir.slotFile())
        try manager.keySlots.rekey()
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM item") == 200)
        try manager.execute("INSERT INTO item(name) VALUES ('after')")
        manager.close()
        let newKey = try manager.keySlots.exportDataKey(password: "second")
        #expect(newKey != oldKey)
        for secret in ["secret", "second", recovery.text] { #expect(itemCount(in: dir, password: secret) == "201") }
        #expect(thrownCase { try manager.open(.rawKey(oldKey)) } == "incorrectKeyOrSettings")
        let current = Fixture.bytes(dir.slotFile())
        try oldSlots.write(to: dir.slotFile())
        #expect(itemCount(in: dir, password: "secret") == "slotFileOutdated")
        try current.write(to: dir.slotFile())
        #expect(!FileManager.default.fileExists(atPath: dir.slotFile().path + ".next"))
    }

    @Test("a password database converts to key slots and back; the password opens throughout")
    func convertBothWays() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager { $0.keySlots = .fast }
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try manager.execute("INSERT INTO item(name) VALUES ('one')")
        #expect(thrownCase { try manager.keySlots.enable(password: "wrong") } == "incorrectPasswordOrSettings")
        try manager.keySlots.enable(password: "secret")
        #expect(manager.keySlots.isEnabled)
        #expect(Array(Fixture.bytes(dir.file()).prefix(8)) == Array("SCM-KEYS".utf8))
        manager.close()
        #expect(itemCount(in: dir, password: "secret") == "1")
        try manager.open(password: "secret")
        try manager.keySlots.disable(password: "plain-again")
        manager.close()
        #expect(!FileManager.default.fileExists(atPath: dir.slotFile().path))
        #expect(!manager.keySlots.isEnabled)
        #expect(itemCount(in: dir, password: "plain-again") == "1")
        #expect(itemCount(in: dir, password: "secret") == "incorrectPasswordOrSettings")
    }
}
