import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Adopt a plaintext database on open", .ownThread)
struct AdoptPlaintextTests {
    @Test("with adoptsPlaintextDatabase, open(password:) encrypts a plaintext file in place and opens it")
    func adoptWithPassword() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file())
        let manager = dir.manager { $0.adoptsPlaintextDatabase = true }
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        try manager.open(password: "new-secret")

        #expect(delegate.events == [.didOpen])
        #expect(try manager.withDatabase { try RichDatabase.verify($0, rows: 200) } == [])
        manager.close()
        #expect(!DatabaseFile(path: dir.file().path).isPlaintextSQLite)
        #expect(dir.openResult(password: "new-secret") == "none")
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
    }

    @Test("with adoptsPlaintextDatabase, open(rawKey:) adopts with the raw key")
    func adoptWithRawKey() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file())
        let rawKey = Data(repeating: 0x42, count: 32)
        let manager = dir.manager { $0.adoptsPlaintextDatabase = true }
        try manager.open(.rawKey(rawKey))
        manager.close()
        try manager.open(.rawKey(rawKey))
        #expect(try manager.withDatabase { try RichDatabase.verify($0, rows: 200) } == [])
    }

    @Test("without the option a plaintext file is refused and left as it is")
    func noAdoptionByDefault() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file())
        let snapshot = FileSnapshot(dir.url)
        #expect(dir.openResult(password: "new-secret") == "plaintextDatabase")
        #expect(FileSnapshot(dir.url) == snapshot)
    }

    @Test("an encrypted file is opened normally; a wrong password does not adopt anything")
    func encryptedFileUnaffected() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let snapshot = FileSnapshot(dir.url)
        #expect(dir.openResult(password: "wrong", configure: { $0.adoptsPlaintextDatabase = true }) == "incorrectPasswordOrSettings")
        #expect(FileSnapshot(dir.url) == snapshot)
        #expect(dir.openResult(password: "old-secret", configure: { $0.adoptsPlaintextDatabase = true }) == "none")
    }
}

extension AdoptPlaintextTests {
    @Test(
        "a read-only plaintext file cannot be adopted: permissionDenied, reported, file unchanged",
        .enabled(if: ReadOnly.isSupported, "cannot make a file read-only here (root without chattr +i)"))
    func adoptReadOnly() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file())
        let snapshot = FileSnapshot(dir.url)
        let manager = dir.manager { $0.adoptsPlaintextDatabase = true }
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        let failure = ReadOnly.whileReadOnly(dir.file()) { thrownCase { try manager.open(password: "new-secret") } }

        #expect(failure == "permissionDenied")
        #expect(delegate.events == [.didFail("permissionDenied")])
        #expect(!manager.isOpen)
        #expect(FileSnapshot(dir.url) == snapshot)
    }
}
