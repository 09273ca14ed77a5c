import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Key slots: create, open, change, add, remove, list")
struct KeySlotTests {
    @Test("a key-slot database opens with its password through open(password:), marked in its header")
    func createAndOpen() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        manager.close()
        #expect(FileManager.default.fileExists(atPath: dir.slotFile().path))
        #expect(!FileManager.default.fileExists(atPath: dir.slotFile().path + ".next"))
        #expect(Array(Fixture.bytes(dir.file()).prefix(8)) == Array("SCM-KEYS".utf8))
        #expect(itemCount(in: dir, password: "secret") == "3")
        #expect(itemCount(in: dir, password: "wrong") == "incorrectPasswordOrSettings")
        #expect(dir.keySlotManager().keySlots.isEnabled)
        #expect(try dir.keySlotManager().keySlots.list().map(\.kind) == [.password])
    }

    @Test("a wrong password on a key-slot database says no slot matches it, not kdf_iter or page size")
    func wrongPasswordMessageNamesTheSlots() throws {
        let dir = TemporaryDirectory()
        try dir.createdKeySlotManager().close()
        let manager = dir.keySlotManager()
        let failures = [
            thrownError { try manager.open(password: "wrong") },
            thrownError { try manager.keySlots.change(password: "wrong", to: "other") },
            thrownError { _ = try manager.keySlots.exportDataKey(password: "wrong") },
        ]
        for failure in failures {
            let text = "\(failure.map { "\($0)" } ?? "none")"
            #expect(failure.map(outcomeName) == "incorrectPasswordOrSettings", "\(text)")
            #expect(text.contains("matches none of the key slots in \(dir.slotFile().path)"), "\(text)")
            #expect(text.contains("recovery key"), "\(text)")
            #expect(!text.contains("kdf_iter") && !text.contains("page size"), "\(text)")
        }
    }

    @Test("keySlots.change(password:to:) reseals one slot: no page of the data is rewritten, only the revision row is added")
    func changePasswordTouchesNoPage() throws {
        let dir = TemporaryDirectory()
        try dir.createdKeySlotManager().close()
        let before = Fixture.bytes(dir.file())
        let manager = dir.keySlotManager()
        try manager.keySlots.change(password: "secret", to: "fresh")
        // Page 1 (the schema) gains scm_key_slots; the table `item` (page 2) is not rewritten.
        let after = Fixture.bytes(dir.file())
        let page = LinkedFormat.pageSize
        #expect(before.count == 2 * page && after.count > before.count)
        #expect(after[page..<(2 * page)] == before[page..<(2 * page)])
        #expect(itemCount(in: dir, password: "fresh") == "3")
        #expect(itemCount(in: dir, password: "secret") == "incorrectPasswordOrSettings")
        #expect(throws: DatabaseManagerError.incorrectPasswordOrSettings(path: dir.file().path, keySlotFile: dir.slotFile().path)) {
            try manager.keySlots.change(password: "secret", to: "other")
        }
        #expect(thrownCase { try manager.keySlots.change(password: "fresh", to: "  ") } == "invalidPassword")
    }

    @Test("added passwords open; a removed one no longer does; the last slot is never removed")
    func addAndRemove() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        let added = try manager.keySlots.add(password: "second", label: "laptop")
        #expect(added.label == "laptop" && added.kind == .password)
        #expect(itemCount(in: dir, password: "second") == "3")
        try manager.keySlots.remove(password: "secret")
        #expect(itemCount(in: dir, password: "secret") == "incorrectPasswordOrSettings")
        #expect(itemCount(in: dir, password: "second") == "3")
        #expect(throws: DatabaseManagerError.keySlots(.lastSlot(id: added.id))) { try manager.keySlots.remove(id: added.id) }
        #expect(throws: DatabaseManagerError.keySlots(.slotNotFound(id: 99))) { try manager.keySlots.remove(id: 99) }
        let slots = try manager.keySlots.list()
        #expect(slots.map(\.id) == [added.id])
        #expect(slots[0].description.contains("laptop"))
    }

    @Test("a recovery key opens through open(recoveryKey:) and where a password is asked; a typo is named")
    func recoveryKey() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        let key = try manager.keySlots.addRecoveryKey()
        manager.close()
        #expect(key.text.split(separator: "-").map(\.count) == Array(repeating: 5, count: 8))
        #expect(!key.description.contains(key.text))
        #expect(itemCount(in: dir, password: key.text) == "3")
        let typed = key.text.lowercased().replacingOccurrences(of: "-", with: " ")
        let reopened = dir.keySlotManager()
        try reopened.open(recoveryKey: typed)
        reopened.close()
        var mistyped = Array(key.text)
        mistyped[3] = mistyped[3] == "A" ? "B" : "A"
        #expect(thrownKeySlotCase { try reopened.open(recoveryKey: String(mistyped)) } == "invalidRecoveryKey")
        #expect(thrownKeySlotCase { try reopened.open(recoveryKey: "ABCDE-U") } == "invalidRecoveryKey")
    }

    @Test("a raw-key slot opens with open(rawKey:); the exported data key opens too")
    func rawKeySlot() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        let storeKey = Data((0..<32).map { UInt8($0) })
        try manager.keySlots.add(rawKey: storeKey, label: "keychain")
        #expect(thrownCase { try manager.keySlots.add(rawKey: Data(count: 16)) } == "invalidKeyLength")
        manager.close()
        try manager.open(.rawKey(storeKey))
        manager.close()
        let dataKey = try manager.keySlots.exportDataKey(password: "secret")
        #expect(dataKey.count == 32)
        try manager.open(.rawKey(dataKey))
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM item") == 3)
        manager.close()
        #expect(throws: DatabaseManagerError.incorrectKeyOrSettings(path: dir.file().path)) {
            try manager.open(.rawKey(Data(repeating: 7, count: 32)))
        }
    }

    @Test("rekey(password:) and create-style conversions are refused on a key-slot database")
    func plainRekeyRefused() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        #expect(throws: DatabaseManagerError.keySlots(.keySlotDatabase(path: dir.file().path))) {
            try manager.rekey(to: .password("other"))
        }
        #expect(throws: DatabaseManagerError.keySlots(.keySlotDatabase(path: dir.file().path))) {
            try manager.rekey(to: .rawKey(Data(count: 32)))
        }
        #expect(throws: DatabaseManagerError.keySlots(.keySlotDatabase(path: dir.file().path))) {
            try manager.keySlots.enable(password: "secret")
        }
        manager.close()
        #expect(throws: DatabaseManagerError.fileAlreadyExists(path: dir.slotFile().path)) {
            try dir.keySlotManager().create(.password("x"), keySlots: true)
        }
        #expect(itemCount(in: dir, password: "secret") == "3")
    }

    @Test("a password database is not a key-slot database")
    func notKeySlot() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE item(id INTEGER PRIMARY KEY)")
        #expect(!manager.keySlots.isEnabled)
        #expect(throws: DatabaseManagerError.keySlots(.notKeySlotDatabase(path: dir.file().path))) { _ = try manager.keySlots.list() }
        #expect(throws: DatabaseManagerError.keySlots(.notKeySlotDatabase(path: dir.file().path))) {
            try manager.keySlots.add(password: "more")
        }
        #expect(throws: DatabaseManagerError.keySlots(.notKeySlotDatabase(path: dir.file().path))) {
            try manager.keySlots.change(password: "secret", to: "x")
        }
    }
}

@Suite("Key slots: the manager throws one error type")
struct KeySlotErrorTypeTests {
    @Test("a manager key-slot call throws DatabaseManagerError, keeping the KeySlotError, never a bare KeySlotError")
    func managerThrowsDatabaseManagerErrorOnly() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        let only = try #require(try manager.keySlots.list().first)
        let plain = dir.manager("plain.db")
        try plain.create(password: "secret")
        let failures: [(call: () throws -> Void, expected: DatabaseManagerError)] = [
            ({ try manager.keySlots.remove(id: 3) }, .keySlots(.slotNotFound(id: 3))),
            ({ try manager.keySlots.remove(id: only.id) }, .keySlots(.lastSlot(id: only.id))),
            ({ _ = try plain.keySlots.list() }, .keySlots(.notKeySlotDatabase(path: dir.file("plain.db").path))),
        ]
        for (call, expected) in failures {
            do {
                try call()
                Issue.record("expected \(expected), nothing was thrown")
            } catch let error as DatabaseManagerError {
                #expect(error == expected)
            } catch {
                Issue.record("expected a DatabaseManagerError, got \(type(of: error)): \(error)")
            }
            #expect(!(thrownError(call) is KeySlotError))
        }
    }
}

@Suite("Key slots: a KeyStore's key as a slot")
struct KeySlotKeyStoreTests {
    @Test("a key from a FileKeyStore opens the database through its slot, passwords still do")
    func keyStoreSlot() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        let keys = FileKeyStore(directory: dir.file("keys"))
        let key = try DatabaseKey.generate()
        try keys.storeKey(key, identifier: "vault")
        let slot = try manager.keySlots.add(key: key, label: "file key store")
        #expect(slot.kind == .rawKey)
        manager.close()
        let loaded = try #require(try keys.loadKey(identifier: "vault"))
        try manager.open(.key(loaded))
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM item") == 3)
        #expect(throws: DatabaseManagerError.keySlots(.keySlotDatabase(path: dir.file().path))) { try manager.rekey(to: .key(loaded)) }
        manager.close()
        #expect(itemCount(in: dir, password: "secret") == "3")
    }
}
