import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Key slots and key stores on a database with a plaintext header (SQLCipher 4): the data key
/// is a raw key, so the salt comes from `<db>.scm-salt` on every connection they open.
@Suite("Plaintext header: key slots and key stores", .ownThread)
struct PlaintextHeaderKeySlotTests {
    @Test("a key-slot database in the header form opens by password, by a key store's key and after a data-key rotation")
    func keySlots() throws {
        guard LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let manager = dir.manager {
            $0.keySlots = .fast
            $0.cipher.plaintextHeader = true
            $0.journalMode = .wal
        }
        try manager.create(.password("secret"), keySlots: true)
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try manager.execute("INSERT INTO item(name) VALUES ('one'), ('two')")
        #expect(Array(Fixture.bytes(dir.file()).prefix(16)) == PlaintextHeaderTests.magic)
        let salt = try HeaderSaltFile.read(for: dir.file().path)
        let keys = FileKeyStore(directory: dir.file("keys"))
        let key = try DatabaseKey.generate()
        try keys.storeKey(key, identifier: "vault")
        _ = try manager.keySlots.add(key: key, label: "file key store")
        try manager.keySlots.rekey()
        #expect(try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM item") } == 2)
        #expect(try HeaderSaltFile.read(for: dir.file().path) == salt)
        #expect(Array(Fixture.bytes(dir.file()).prefix(16)) == PlaintextHeaderTests.magic)
        manager.close()
        #expect(itemCount(in: dir, password: "secret") == "2")
        let loaded = try #require(try keys.loadKey(identifier: "vault"))
        let byKey = dir.keySlotManager()
        try byKey.open(.key(loaded))
        #expect(try byKey.scalar(Int.self, "SELECT count(*) FROM item") == 2)
        byKey.close()
        // Without the salt file neither opens, and the error names it.
        try FileManager.default.removeItem(atPath: HeaderSaltFile.path(for: dir.file().path))
        let missing = dir.manager {
            $0.keySlots = .fast
            $0.cipher.plaintextHeader = true
        }
        let error = thrownError { try missing.open(password: "secret") } as? DatabaseManagerError
        #expect(
            error == .headerSaltUnusable(path: dir.file().path, saltFile: HeaderSaltFile.path(for: dir.file().path), problem: .missing),
            "\(String(describing: error))")
    }

    @Test("openOrCreate with a key store creates the header form when asked, and opens it on the next launch")
    func firstLaunch() throws {
        guard LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let keys = FileKeyStore(directory: dir.file("keys"))
        let first = dir.manager { $0.cipher.plaintextHeader = true }
        #expect(try first.openOrCreate(keyStore: keys, identifier: "db") == .createdWithNewKey)
        try first.executeScript("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item(name) VALUES ('x')")
        first.close()
        #expect(Array(Fixture.bytes(dir.file()).prefix(16)) == PlaintextHeaderTests.magic)
        let next = dir.manager { $0.cipher.plaintextHeader = true }
        #expect(try next.openOrCreate(keyStore: keys, identifier: "db") == .openedExisting)
        #expect(try next.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM item") } == 1)
        next.close()
    }
}

extension PlaintextHeaderKeySlotTests {
    @Test("a change of the salt (to key slots) is refused in the header form, before anything is written")
    func saltChangeRefused() throws {
        guard LegacyFile.isV4 else { return }
        let dir = TemporaryDirectory()
        let manager = dir.manager {
            $0.keySlots = .fast
            $0.cipher.plaintextHeader = true
        }
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        let before = Fixture.bytes(dir.file())
        let salt = Fixture.bytes(URL(fileURLWithPath: HeaderSaltFile.path(for: dir.file().path)))
        let error = thrownError { try manager.keySlots.enable(password: "secret") } as? DatabaseManagerError
        guard case .invalidOption(let name, _)? = error else {
            Issue.record("expected invalidOption, got \(String(describing: error))")
            return
        }
        #expect(name == "plaintextHeader")
        #expect(Fixture.bytes(dir.file()) == before)
        #expect(Fixture.bytes(URL(fileURLWithPath: HeaderSaltFile.path(for: dir.file().path))) == salt)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter {
            !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
        }
        #expect(files.sorted() == ["test.db", "test.db.scm-salt"], "\(files)")
        #expect(try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM item") } == 0)
        manager.close()
    }
}
