import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// FileKeyStore: private directory and files, refusals before any byte is read, durable
/// never-replacing writes, both file formats.
@Suite("FileKeyStore: 0700 directory, 0600 files, refusals with nothing read")
struct FileKeyStoreTests {
    @Test func storeCreatesAPrivateDirectoryAndFileAndLoadsTheSameKey() throws {
        let dir = TemporaryDirectory()
        let store = FileKeyStore(directory: dir.file("keys"))
        let key = try DatabaseKey.generate()
        #expect(try store.loadKey(identifier: "notes") == nil)
        try store.storeKey(key, identifier: "notes")

        #expect(mode(of: dir.file("keys")) == 0o700)
        #expect(mode(of: dir.file("keys/notes")) == 0o600)
        #expect(Fixture.bytes(dir.file("keys/notes")).count == 32)
        let loaded = try #require(try store.loadKey(identifier: "notes"))
        #expect(loaded.hasSameBytes(as: key))
        // Only the key file and the lock file: no temporary file is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("keys").path).sorted() == [".lock", "notes"])
    }

    @Test func anExistingKeyIsNeverReplaced() throws {
        let dir = TemporaryDirectory()
        let store = FileKeyStore(directory: dir.file("keys"))
        try store.storeKey(try DatabaseKey.generate(), identifier: "notes")
        let before = Fixture.bytes(dir.file("keys/notes"))
        #expect(throws: KeyStoreError.alreadyStored(identifier: "notes", store: store.storeDescription)) {
            try store.storeKey(try DatabaseKey.generate(), identifier: "notes")
        }
        #expect(Fixture.bytes(dir.file("keys/notes")) == before)
    }

    @Test func deleteRemovesTheKeyAndAStaleTemporaryFile() throws {
        let dir = TemporaryDirectory()
        let store = FileKeyStore(directory: dir.file("keys"))
        try store.storeKey(try DatabaseKey.generate(), identifier: "notes")
        try Data(count: 32).write(to: dir.file("keys/.notes.tmp"))
        try store.deleteKey(identifier: "notes")
        #expect(try store.loadKey(identifier: "notes") == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.file("keys/.notes.tmp").path))
        try store.deleteKey(identifier: "notes")  // nothing stored: not an error
    }

    @Test func aStaleTemporaryFileFromACrashIsReplacedByTheNextStore() throws {
        let dir = TemporaryDirectory()
        let store = FileKeyStore(directory: dir.file("keys"))
        try FileManager.default.createDirectory(
            at: dir.file("keys"), withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        try Data(repeating: 7, count: 5).write(to: dir.file("keys/.notes.tmp"))
        let key = try DatabaseKey.generate()
        try store.storeKey(key, identifier: "notes")
        #expect(try #require(try store.loadKey(identifier: "notes")).hasSameBytes(as: key))
        #expect(!FileManager.default.fileExists(atPath: dir.file("keys/.notes.tmp").path))
    }

    @Test("a group/world-accessible key file is refused and not read", arguments: [0o640, 0o604, 0o660, 0o644])
    func insecureFileIsRefusedUnread(_ bits: Int) throws {
        let dir = TemporaryDirectory()
        let (store, file) = try storedKey(in: dir)
        try setMode(file, bits)
        try expectRefusedUnread(file, thrown: .insecurePermissions(path: file.path, mode: UInt32(bits))) {
            _ = try store.loadKey(identifier: "notes")
        }
    }

    @Test func anInsecureDirectoryIsRefusedAndTheKeyIsNotRead() throws {
        let dir = TemporaryDirectory()
        let (store, file) = try storedKey(in: dir)
        try setMode(dir.file("keys"), 0o755)
        #expect(throws: KeyStoreError.insecurePermissions(path: dir.file("keys").path, mode: 0o755)) {
            try store.storeKey(try DatabaseKey.generate(), identifier: "other")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("keys/other").path))
        try expectRefusedUnread(file, thrown: .insecurePermissions(path: dir.file("keys").path, mode: 0o755)) {
            _ = try store.loadKey(identifier: "notes")
        }
    }

    @Test("a key file owned by another user is refused and not read", .enabled(if: geteuid() == 0, "needs root to chown"))
    func foreignOwnerIsRefusedUnread() throws {
        let dir = TemporaryDirectory()
        let (store, file) = try storedKey(in: dir)
        #expect(chown(file.path, 65534, 65534) == 0)
        try expectRefusedUnread(file, thrown: .wrongOwner(path: file.path, owner: 65534, expected: 0)) {
            _ = try store.loadKey(identifier: "notes")
        }
    }

    @Test func aSymbolicLinkIsRefused() throws {
        let dir = TemporaryDirectory()
        let (store, file) = try storedKey(in: dir)
        try FileManager.default.moveItem(at: file, to: dir.file("elsewhere"))
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: dir.file("elsewhere"))
        #expect(throws: KeyStoreError.notARegularFile(path: file.path)) { _ = try store.loadKey(identifier: "notes") }
    }

    @Test func hexadecimalKeyFilesAreReadAndMalformedOnesRefused() throws {
        let dir = TemporaryDirectory()
        let store = FileKeyStore(directory: dir.file("keys"))
        try store.storeKey(try DatabaseKey.generate(), identifier: "probe")  // makes the 0700 directory
        let hex = String(repeating: "0123456789abcDEF", count: 4)
        let expected = try DatabaseKey(bytes: (0..<32).map { UInt8([0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef][$0 % 8]) })
        for (name, text) in [("plain", hex), ("lf", hex + "\n"), ("crlf", hex + "\r\n")] {
            try writePrivate(Data(text.utf8), to: dir.file("keys/\(name)"))
            #expect(try #require(try store.loadKey(identifier: name)).hasSameBytes(as: expected), "\(name)")
        }
        for (name, data) in [
            ("short", Data(count: 31)), ("nothex", Data(String(repeating: "zz", count: 32).utf8)),
            ("trailing", Data((hex + "xy").utf8)),
        ] {
            try writePrivate(data, to: dir.file("keys/\(name)"))
            #expect(throws: KeyStoreError.self, "\(name)") { _ = try store.loadKey(identifier: name) }
        }
    }

    @Test(arguments: ["", ".hidden", "a/b", "../x", "sp ace", String(repeating: "x", count: 201)])
    func invalidIdentifiersAreRefused(_ identifier: String) throws {
        let store = FileKeyStore(directory: TemporaryDirectory().file("keys"))
        #expect(throws: KeyStoreError.self) { _ = try store.loadKey(identifier: identifier) }
    }

    @Test func keysAndErrorsNeverShowTheKeyBytes() throws {
        let dir = TemporaryDirectory()
        let (store, file) = try storedKey(in: dir)
        let key = try #require(try store.loadKey(identifier: "notes"))
        let hex = key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
        try setMode(file, 0o644)
        let texts = [
            "\(key)", String(reflecting: key), "\(thrownError { _ = try store.loadKey(identifier: "notes") }!)",
            "\(DatabaseManagerError.keyUnavailable(identifier: "notes", underlying: .locked(store: "keyring", reason: "locked")))",
        ]
        for text in texts {
            #expect(!text.lowercased().contains(hex), "\(text)")
            #expect(!text.contains(String(hex.prefix(16))), "\(text)")
        }
    }

    // MARK: - Helpers

    private func storedKey(in dir: TemporaryDirectory) throws -> (FileKeyStore, URL) {
        let store = FileKeyStore(directory: dir.file("keys"))
        try store.storeKey(try DatabaseKey.generate(), identifier: "notes")
        return (store, dir.file("keys/notes"))
    }

    /// Sets the file's access time far in the past, runs the refused load, checks the error and
    /// that the access time did not move; then, as a control, allows and reads the file and
    /// checks the access time moved (the file system records reads, `relatime`).
    private func expectRefusedUnread(_ file: URL, thrown expected: KeyStoreError, _ load: () throws -> Void) throws {
        try setAccessTime(file, seconds: 1_000)
        #expect(throws: expected) { try load() }
        #expect(accessTime(file) == 1_000, "the refused key file was read")
        try setMode(file.deletingLastPathComponent(), 0o700)
        if geteuid() == 0 { _ = chown(file.path, 0, 0) }
        try setMode(file, 0o600)
        try load()
        #expect(accessTime(file) != 1_000, "control: a read does move the access time here")
    }

    private func writePrivate(_ data: Data, to url: URL) throws {
        try data.write(to: url)
        try setMode(url, 0o600)
    }

    private func setMode(_ url: URL, _ bits: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: bits], ofItemAtPath: url.path)
    }

    private func mode(of url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? Int
    }

    private func setAccessTime(_ url: URL, seconds: Int) throws {
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), info.st_mtim]
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
    }

    private func accessTime(_ url: URL) -> Int {
        var info = stat()
        return stat(url.path, &info) == 0 ? info.st_atim.tv_sec : -1
    }
}
