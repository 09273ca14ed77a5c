import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Key slots: what change-password, remove and rotate revoke")
struct KeySlotRevocationTests {
    /// Everything an attacker who kept `oldSlots` and knows `oldPassword` can recover from the
    /// current slot file: the data keys its slots give to the old file's slot secret keys,
    /// plus the old file's own data key.
    private func recoverableKeys(oldSlots: Data, oldPassword: String, current: Data) throws -> [SecretBytes] {
        let old = try KeySlotFile.decode(oldSlots, path: "old")
        let now = try KeySlotFile.decode(current, path: "current")
        guard let unlocked = try old.unlock(with: [.password(SecretBytes(password: oldPassword))], options: .fast, path: "old")
        else { return [] }
        var keys = [unlocked.dataKey]
        for slot in now.slots {
            if let key = slot.openDataKey(secretKey: unlocked.secretKey, databaseID: now.databaseID, generation: now.generation) {
                keys.append(key)
            }
        }
        return keys
    }

    @Test("an old slot file and the old password recover no current data key after change-password and rotate")
    func changePasswordThenRotateRevokes() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager(rows: 5)
        try manager.keySlots.add(password: "other")
        let oldSlots = Fixture.bytes(dir.slotFile())
        try manager.keySlots.change(password: "secret", to: "renewed")
        try manager.keySlots.rekey()
        manager.close()
        let current = Fixture.bytes(dir.slotFile())
        let file = try KeySlotFile.decode(current, path: "current")
        let currentKey = try manager.keySlots.exportDataKey(password: "renewed")
        let recovered = try recoverableKeys(oldSlots: oldSlots, oldPassword: "secret", current: current)
        #expect(recovered.count == 1, "only the old file's own (retired) data key")
        for key in recovered {
            #expect(key.withBytes { Data($0) } != currentKey)
            // The independent shell cannot read a row with it either.
            let hex = file.sqlcipherKey(key).withBytes { String(decoding: $0, as: UTF8.self) }
            let output = try sqlcipherShell(dir.file().path, shellKey("\"\(hex)\"") + "SELECT count(*) FROM item;\n")
            #expect(output.status != 0 && !output.stdout.contains("5"), "sqlcipher read rows: \(output.stdout)")
        }
        // The current key does read them (the check above can fail).
        let hex = file.sqlcipherKey(SecretBytes(currentKey)).withBytes { String(decoding: $0, as: UTF8.self) }
        let output = try sqlcipherShell(dir.file().path, shellKey("\"\(hex)\"") + "SELECT count(*) FROM item;\n")
        #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "5", "\(output.stderr)")
    }

    @Test("change-password gives the slot a fresh key pair: the old secret key opens nothing in the new file")
    func changePasswordFreshSecret() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        let before = try KeySlotFile.decode(Fixture.bytes(dir.slotFile()), path: "before")
        try manager.keySlots.change(password: "secret", to: "renewed")
        let after = try KeySlotFile.decode(Fixture.bytes(dir.slotFile()), path: "after")
        #expect(before.slots[0].id == after.slots[0].id)
        #expect(before.slots[0].publicKey != after.slots[0].publicKey)
        #expect(before.slots[0].sealedDataKey != after.slots[0].sealedDataKey)
        #expect(
            try recoverableKeys(oldSlots: Fixture.bytes(dir.slotFile()), oldPassword: "renewed", current: Fixture.bytes(dir.slotFile()))
                .count == 2)
        manager.close()
        #expect(itemCount(in: dir, password: "renewed") == "3")
    }

    @Test("an older slot file put back after change-password, remove-password or rotate is refused, typed")
    func rollbackRefused() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        try manager.keySlots.add(password: "leaked")
        let withLeaked = Fixture.bytes(dir.slotFile())
        try manager.keySlots.change(password: "leaked", to: "renewed")
        let afterChange = Fixture.bytes(dir.slotFile())
        try manager.keySlots.add(password: "temporary")
        let withTemporary = Fixture.bytes(dir.slotFile())
        try manager.keySlots.remove(password: "temporary")
        manager.close()
        let database = Fixture.bytes(dir.file())
        for (name, old, password) in [("change", withLeaked, "leaked"), ("remove", withTemporary, "temporary")] {
            let current = Fixture.bytes(dir.slotFile())
            try old.write(to: dir.slotFile())
            #expect(itemCount(in: dir, password: password) == "slotFileOutdated", "\(name)")
            #expect(itemCount(in: dir, password: "secret") == "slotFileOutdated", "\(name): every password, the file is refused")
            let message = "\(thrownError { try dir.keySlotManager().open(password: password) }.map { "\($0)" } ?? "")"
            #expect(message.contains("older") && message.contains("Put back the newest"), "\(name): \(message)")
            #expect(Fixture.bytes(dir.file()) == database, "\(name): the database file changed")
            try current.write(to: dir.slotFile())
        }
        #expect(itemCount(in: dir, password: "renewed") == "3")
        #expect(itemCount(in: dir, password: "leaked") == "incorrectPasswordOrSettings")
        // Rotation: the old file's data key no longer opens the database.
        try manager.open(password: "renewed")
        try manager.keySlots.rekey()
        manager.close()
        try afterChange.write(to: dir.slotFile())
        #expect(itemCount(in: dir, password: "renewed") == "slotFileOutdated")
    }

    @Test("an older slot file swapped in under an open manager is refused by the next slot change")
    func rollbackUnderOpenManager() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        let original = Fixture.bytes(dir.slotFile())
        try manager.keySlots.add(password: "second")
        try original.write(to: dir.slotFile())
        #expect(throws: DatabaseManagerError.keySlots(.slotFileOutdated(path: dir.slotFile().path, database: dir.file().path))) {
            try manager.keySlots.add(password: "third")
        }
        #expect(Fixture.bytes(dir.slotFile()) == original)
    }

    @Test("a slot file ahead of the database's record (crash between the two writes) opens and raises the record")
    func fileAheadIsAccepted() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        try manager.keySlots.add(password: "leaked")
        let withLeaked = Fixture.bytes(dir.slotFile())
        manager.close()
        let databaseBefore = Fixture.bytes(dir.file())
        try manager.keySlots.change(password: "leaked", to: "renewed")
        // The record the change made is lost (the database as it was before the change).
        try databaseBefore.write(to: dir.file())
        #expect(itemCount(in: dir, password: "renewed") == "3")
        try withLeaked.write(to: dir.slotFile())
        #expect(itemCount(in: dir, password: "leaked") == "slotFileOutdated", "the unlock raised the record")
    }

    @Test("the sqlcipher shell sees the revision the slot file carries, in scm_key_slots")
    func revisionRecordedInDatabase() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        try manager.keySlots.add(password: "second")
        try manager.keySlots.change(password: "second", to: "third")
        let key = try manager.keySlots.exportDataKey(password: "third")
        manager.close()
        let file = try KeySlotFile.decode(Fixture.bytes(dir.slotFile()), path: "current")
        #expect(file.revision == 3)
        let hex = file.sqlcipherKey(SecretBytes(key)).withBytes { String(decoding: $0, as: UTF8.self) }
        let output = try sqlcipherShell(dir.file().path, shellKey("\"\(hex)\"") + "SELECT revision FROM scm_key_slots;\n")
        #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "\(output.stderr)")
    }

    @Test("converting back to a password drops the record; a second key-slot life starts its own")
    func conversionsResetTheRecord() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        try manager.keySlots.add(password: "second")
        try manager.keySlots.disable(password: "plain-password")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'scm_key_slots'") == 0)
        try manager.keySlots.enable(password: "plain-password")
        let fresh = Fixture.bytes(dir.slotFile())
        try manager.keySlots.add(password: "third")
        manager.close()
        #expect(itemCount(in: dir, password: "third") == "3")
        try fresh.write(to: dir.slotFile())
        #expect(itemCount(in: dir, password: "plain-password") == "slotFileOutdated")
    }

    @Test("an old slot file planted as .scm-keys.next is never installed; the current file opens and it is removed")
    func rollbackThroughNext() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        try manager.keySlots.add(password: "leaked")
        let withLeaked = Fixture.bytes(dir.slotFile())
        try manager.keySlots.remove(password: "leaked")
        manager.close()
        let current = Fixture.bytes(dir.slotFile())
        let next = URL(fileURLWithPath: dir.slotFile().path + ".next")
        try withLeaked.write(to: next)
        #expect(itemCount(in: dir, password: "leaked") == "incorrectPasswordOrSettings")
        #expect(Fixture.bytes(dir.slotFile()) == current)
        #expect(itemCount(in: dir, password: "secret") == "3")
        #expect(!FileManager.default.fileExists(atPath: next.path))
    }
}
