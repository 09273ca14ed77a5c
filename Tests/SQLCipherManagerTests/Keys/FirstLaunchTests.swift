import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Every branch of `openOrCreate(keyStore:identifier:)`, on a real FileKeyStore.
@Suite("First launch: openOrCreate with a key store")
struct FirstLaunchTests {
    @Test func noKeyAndNoDatabaseStoresANewKeyFirstThenCreates() throws {
        let dir = TemporaryDirectory()
        let store = WatchingStore(base: FileKeyStore(directory: dir.file("keys")), database: dir.file())
        let manager = dir.manager()
        #expect(try manager.openOrCreate(keyStore: store, identifier: "notes") == .createdWithNewKey)
        try manager.execute("CREATE TABLE note(body TEXT)")
        try manager.execute("INSERT INTO note VALUES ('first')")
        manager.close()

        #expect(store.stores == ["notes: database missing, key on disk after store"])
        #expect(!DatabaseFile(path: dir.file().path).isPlaintextSQLite)
        let key = try #require(try store.loadKey(identifier: "notes"))
        let reopened = dir.manager()
        try reopened.open(.key(key))
        #expect(try reopened.scalar(String.self, "SELECT body FROM note") == "first")
        reopened.close()
        try expectKeyNotInFiles(key, dir)
    }

    @Test func noKeyAndAPlaintextDatabaseStoresAKeyThenEncryptsInPlace() throws {
        let dir = TemporaryDirectory()
        try Fixture.makePlaintextDatabase(at: dir.file(), rows: 50, userVersion: 3)
        let store = WatchingStore(base: FileKeyStore(directory: dir.file("keys")), database: dir.file())
        let manager = dir.manager()
        #expect(try manager.openOrCreate(keyStore: store, identifier: "notes") == .encryptedPlaintextWithNewKey)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM item") == 50)
        #expect(try manager.schemaVersion == 3)
        manager.close()

        #expect(store.stores == ["notes: database plaintext, key on disk after store"])
        #expect(!DatabaseFile(path: dir.file().path).isPlaintextSQLite)
        #expect(FileSnapshot(dir.url).leftovers == [])
        let again = dir.manager()
        #expect(try again.openOrCreate(keyStore: store, identifier: "notes") == .openedExisting)
        #expect(try again.scalar(String.self, "SELECT name FROM item WHERE id = 1") == "plain-0")
        again.close()
        #expect(store.stores.count == 1)
        try expectKeyNotInFiles(try #require(try store.loadKey(identifier: "notes")), dir)
    }

    @Test func aStoredKeyThatTheFileRefusesIsKeyRefusedAndTheFileIsUntouched() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(.key(try DatabaseKey.generate()))
        manager.close()
        let store = FileKeyStore(directory: dir.file("keys"))
        try store.storeKey(try DatabaseKey.generate(), identifier: "notes")
        let before = FileSnapshot(dir.url)

        #expect(throws: DatabaseManagerError.keyRefused(identifier: "notes", path: dir.file().path)) {
            try dir.manager().openOrCreate(keyStore: store, identifier: "notes")
        }
        #expect(FileSnapshot(dir.url).differences(from: before) == [])
    }

    @Test func anEncryptedDatabaseWithNoStoredKeyIsKeyUnavailableAndNoKeyIsMade() throws {
        let dir = TemporaryDirectory()
        _ = try Fixture.makeEncryptedDatabase(in: dir)
        let store = WatchingStore(base: FileKeyStore(directory: dir.file("keys")), database: dir.file())
        let before = FileSnapshot(dir.url)

        let error = thrownError { try dir.manager().openOrCreate(keyStore: store, identifier: "notes") }
        let missing = KeyStoreError.notStored(identifier: "notes", store: store.storeDescription)
        #expect(error as? DatabaseManagerError == .keyUnavailable(identifier: "notes", underlying: missing))
        #expect("\(error!)".contains("never made for an existing database"))
        #expect(store.stores == [])
        #expect(FileSnapshot(dir.url).differences(from: before) == [])
    }

    @Test func aFileWithADamagedSQLiteHeaderIsRefusedBeforeAKeyIsMade() throws {
        let dir = TemporaryDirectory()
        try Fixture.makePlaintextDatabase(at: dir.file(), rows: 5, userVersion: 0)
        let handle = try FileHandle(forUpdating: dir.file())
        try handle.seek(toOffset: 16)
        try handle.write(contentsOf: Data([0x00, 0x03]))  // page size 3: not a power of two
        try handle.close()
        #expect(DatabaseFile(path: dir.file().path).kind() == .damagedSQLiteHeader)
        let store = WatchingStore(base: FileKeyStore(directory: dir.file("keys")), database: dir.file())
        let before = FileSnapshot(dir.url)

        let error = thrownError { try dir.manager().openOrCreate(keyStore: store, identifier: "notes") }
        #expect(error.map(outcomeName) == "notADatabase")
        #expect("\(error!)".contains("page size"))
        #expect(store.stores == [])
        #expect(try store.loadKey(identifier: "notes") == nil)
        #expect(FileSnapshot(dir.url).differences(from: before) == [])
    }

    @Test func anUnreadableKeyIsKeyUnavailableWhateverTheFile() throws {
        for file in ["encrypted", "missing", "plaintext"] {
            let dir = TemporaryDirectory()
            let store = FileKeyStore(directory: dir.file("keys"))
            let key = try DatabaseKey.generate()
            try store.storeKey(key, identifier: "notes")
            if file == "encrypted" { try dir.manager().create(.key(key)) }
            if file == "plaintext" { try Fixture.makePlaintextDatabase(at: dir.file()) }
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir.file("keys/notes").path)
            let before = FileSnapshot(dir.url)
            let keysBefore = FileSnapshot(dir.file("keys"))

            let error = thrownError { try dir.manager().openOrCreate(keyStore: store, identifier: "notes") }
            let unsafe = KeyStoreError.insecurePermissions(path: dir.file("keys/notes").path, mode: 0o644)
            #expect(error as? DatabaseManagerError == .keyUnavailable(identifier: "notes", underlying: unsafe), "\(file)")
            #expect("\(error!)".contains("accessible to other users"), "\(file)")
            #expect(FileSnapshot(dir.url).differences(from: before) == [], "\(file)")
            #expect(FileSnapshot(dir.file("keys")).differences(from: keysBefore) == [], "\(file)")
        }
    }

    @Test func aKeyStoredByAnInterruptedLaunchIsUsedForTheDatabase() throws {
        for plaintext in [false, true] {
            let dir = TemporaryDirectory()
            let store = WatchingStore(base: FileKeyStore(directory: dir.file("keys")), database: dir.file())
            let key = try DatabaseKey.generate()
            try store.base.storeKey(key, identifier: "notes")
            if plaintext { try Fixture.makePlaintextDatabase(at: dir.file(), rows: 7) }

            let manager = dir.manager()
            #expect(
                try manager.openOrCreate(keyStore: store, identifier: "notes")
                    == (plaintext ? .resumedEncryption : .resumedCreate))
            manager.close()
            #expect(store.stores == [])
            let check = dir.manager()
            try check.open(.key(key))
            if plaintext { #expect(try check.scalar(Int.self, "SELECT count(*) FROM item") == 7) }
            check.close()
        }
    }

    @Test func aKeyThatCannotBeStoredCreatesAndEncryptsNothing() throws {
        for plaintext in [false, true] {
            let dir = TemporaryDirectory()
            if plaintext { try Fixture.makePlaintextDatabase(at: dir.file()) }
            let store = FileKeyStore(directory: dir.file("no-such-parent/keys"))
            let before = FileSnapshot(dir.url)
            let error = thrownError { try dir.manager().openOrCreate(keyStore: store, identifier: "notes") }
            guard let failure = error as? DatabaseManagerError, case .keyNotStored(identifier: "notes", let underlying) = failure.kind,
                underlying.code == .failed
            else {
                Issue.record("expected keyNotStored(notes, failed), got \(String(describing: error))")
                continue
            }
            #expect(FileSnapshot(dir.url).differences(from: before) == [])
        }
    }

    @Test func whenAnotherProcessStoresAKeyFirstItsKeyIsUsed() throws {
        let dir = TemporaryDirectory()
        let winner = try DatabaseKey.generate()
        let store = WatchingStore(base: FileKeyStore(directory: dir.file("keys")), database: dir.file(), racingKey: winner)
        let manager = dir.manager()
        #expect(try manager.openOrCreate(keyStore: store, identifier: "notes") == .resumedCreate)
        manager.close()
        let check = dir.manager()
        try check.open(.key(winner))
        check.close()
    }

    @Test func openOrCreateOnAnOpenManagerIsAlreadyOpen() throws {
        let dir = TemporaryDirectory()
        let store = FileKeyStore(directory: dir.file("keys"))
        let manager = dir.manager()
        try manager.openOrCreate(keyStore: store, identifier: "notes")
        #expect(throws: DatabaseManagerError.alreadyOpen) { try manager.openOrCreate(keyStore: store, identifier: "notes") }
        manager.close()
    }

    @Test func generatedKeysAreThirtyTwoDistinctBytes() throws {
        let keys = try (0..<64).map { _ in try DatabaseKey.generate() }
        let hexes = Set(keys.map { key in key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() } })
        #expect(hexes.count == 64)
        #expect(keys.allSatisfy { key in key.withUnsafeBytes { $0.count == 32 } })
        #expect(throws: DatabaseKeyError.invalidKeyLength(31)) { _ = try DatabaseKey(bytes: [UInt8](repeating: 1, count: 31)) }
    }

    /// The key's bytes and its hex form appear in no file of the directory but the key file.
    private func expectKeyNotInFiles(_ key: DatabaseKey, _ dir: TemporaryDirectory) throws {
        let raw = key.withUnsafeBytes { Data($0) }
        let hex = Data(raw.map { String(format: "%02x", $0) }.joined().utf8)
        for (name, bytes) in FileSnapshot(dir.url).files {
            #expect(bytes.range(of: raw) == nil && bytes.range(of: hex) == nil, "\(name) holds the key")
        }
    }
}

// MARK: - WatchingStore

/// A real FileKeyStore, watched: each store records whether the database existed (and was
/// plaintext) at that moment and whether the key file was on disk when the store returned. With
/// `racingKey`, another "process" stores that key just before this store's first write.
final class WatchingStore: KeyStore, @unchecked Sendable {
    // @unchecked: `stores` is written only under `lock`.
    let base: FileKeyStore
    let database: URL
    let racingKey: DatabaseKey?
    private let lock = NSLock()
    private var _stores: [String] = []

    init(base: FileKeyStore, database: URL, racingKey: DatabaseKey? = nil) {
        self.base = base
        self.database = database
        self.racingKey = racingKey
    }

    var stores: [String] { lock.withLock { _stores } }
    var storeDescription: String { base.storeDescription }

    func loadKey(identifier: String) throws -> DatabaseKey? { try base.loadKey(identifier: identifier) }
    func deleteKey(identifier: String) throws { try base.deleteKey(identifier: identifier) }

    func storeKey(_ key: DatabaseKey, identifier: String) throws {
        if let racingKey { try base.storeKey(racingKey, identifier: identifier) }
        let kind = DatabaseFile(path: database.path).kind()
        let state = kind == .missing ? "missing" : kind == .plaintextSQLite ? "plaintext" : "present"
        try base.storeKey(key, identifier: identifier)
        let onDisk = FileManager.default.fileExists(atPath: try base.fileURL(identifier: identifier).path)
        lock.withLock { _stores.append("\(identifier): database \(state), key \(onDisk ? "on disk" : "not on disk") after store") }
    }
}
