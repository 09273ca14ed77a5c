import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Encrypt a plaintext database", .ownThread)
struct EncryptPlaintextTests {
    static let configuration = DatabaseConfiguration(cipher: .fast())

    // MARK: - In place

    @Test("in place: every object, row, user_version and application_id carried over; no plaintext left")
    func encryptInPlace() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file(), rows: 300)
        let before = try plaintextFingerprint(dir.file())
        var fractions: [Double] = []
        try DatabaseTools.encryptPlaintextDatabase(
            at: dir.file(), password: "new-secret", configuration: Self.configuration
        ) { fractions.append($0) }

        #expect(!DatabaseFile(path: dir.file().path).isPlaintextSQLite)
        #expect(!Fixture.contains(dir.file(), "MARKER-1"))
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(fractions.first == 0 && fractions.last == 1)
        try dir.withOpened(password: "new-secret") { (db: Database) throws in
            #expect(try DatabaseFingerprint(db.connection) == before)
            #expect(try RichDatabase.verify(db, rows: 300) == [])
            #expect(try RichDatabase.constraintsWork(db))
        }
    }

    @Test("in place, WAL: rows still in the -wal are carried over and the -wal and -shm are gone")
    func encryptInPlaceWAL() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file("live.db"), rows: 100, wal: true)
        // A crashed writer: copy the file with a -wal that holds committed rows.
        let writer = try Connection(path: dir.file("live.db").path, mode: .readWrite)
        try writer.executeScript("PRAGMA wal_autocheckpoint = 0; INSERT INTO tag(name, weight) VALUES ('in-wal', 1)")
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: dir.file("live.db").path + suffix, toPath: dir.file().path + suffix)
        }
        writer.close()
        #expect((FileSystem.size(of: dir.file().path + "-wal") ?? 0) > 0)
        try DatabaseTools.encryptPlaintextDatabase(at: dir.file(), password: "new-secret", configuration: Self.configuration)

        for suffix in FileSystem.sidecarSuffixes {
            #expect(!FileManager.default.fileExists(atPath: dir.file().path + suffix), "\(suffix) left")
        }
        try dir.withOpened(password: "new-secret") { (db: Database) throws in
            #expect(try db.scalar(Int.self, "SELECT count(*) FROM tag") == 21)
            #expect(try db.scalar(String.self, "PRAGMA journal_mode") == "wal")
        }
    }

    @Test("in place with a raw key")
    func encryptInPlaceRawKey() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file())
        let rawKey = Data((0..<32).map { UInt8(255 - $0) })
        try DatabaseTools.encryptPlaintextDatabase(at: dir.file(), rawKey: rawKey, configuration: Self.configuration)
        let manager = dir.manager()
        try manager.open(.rawKey(rawKey))
        #expect(try manager.withDatabase { try RichDatabase.verify($0, rows: 200) } == [])
    }

    // MARK: - To a new path

    @Test("to a new path: the source is not modified; the destination opens with the password")
    func encryptToPath() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file("plain.db"))
        let source = Fixture.bytes(dir.file("plain.db"))
        try DatabaseTools.encryptPlaintextDatabase(
            at: dir.file("plain.db"), to: dir.file(), password: "new-secret", configuration: Self.configuration)

        #expect(Fixture.bytes(dir.file("plain.db")) == source)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["plain.db", "test.db"])
        #expect(try dir.withOpened(password: "new-secret") { try RichDatabase.verify($0, rows: 200) } == [])
    }

    // MARK: - Bad input: typed error, nothing changed

    @Test(
        "bad input is refused with a typed error and every file unchanged",
        arguments: [
            "destination exists", "source encrypted", "source not a database", "source empty", "source missing", "blank password",
        ])
    func badInput(_ situation: String) throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file("plain.db"))
        var source = dir.file("plain.db")
        var destination: URL? = dir.file("new.db")
        var password = "new-secret"
        let expected: String
        switch situation {
        case "destination exists":
            try Data("occupied".utf8).write(to: dir.file("new.db"))
            expected = "fileAlreadyExists"
        case "source encrypted":
            source = try RichDatabase.makeEncrypted(in: dir, name: "enc.db")
            destination = nil
            expected = "notPlaintextDatabase"
        case "source not a database":
            source = dir.file("random.bin")
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: source)
            destination = nil
            expected = "notPlaintextDatabase"
        case "source empty":
            source = dir.file("empty.db")
            try Data().write(to: source)
            expected = "notPlaintextDatabase"
        case "source missing":
            source = dir.file("missing.db")
            expected = "fileNotFound"
        default:
            password = "  "
            expected = "invalidPassword"
        }
        let snapshot = FileSnapshot(dir.url)
        let failure = thrownCase {
            try DatabaseTools.encryptPlaintextDatabase(
                at: source, to: destination, password: password, configuration: Self.configuration)
        }
        #expect(failure == expected)
        #expect(FileSnapshot(dir.url) == snapshot)
    }

    @Test(
        "a read-only source file (in place) or directory: permissionDenied, nothing changed",
        .enabled(if: ReadOnly.isSupported, "cannot make a path read-only here (root without chattr +i)"))
    func readOnly() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file())
        let snapshot = FileSnapshot(dir.url)
        for locked in [dir.file(), dir.url] {
            let failure = ReadOnly.whileReadOnly(locked) {
                thrownCase {
                    try DatabaseTools.encryptPlaintextDatabase(at: dir.file(), password: "new-secret", configuration: Self.configuration)
                }
            }
            #expect(failure == "permissionDenied")
            #expect(FileSnapshot(dir.url) == snapshot)
        }
    }

    @Test(
        "a read-only source can still be encrypted to another directory",
        .enabled(if: ReadOnly.isSupported, "cannot make a path read-only here (root without chattr +i)"))
    func readOnlySourceToPath() throws {
        let dir = TemporaryDirectory()
        let out = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file())
        let snapshot = FileSnapshot(dir.url)
        try ReadOnly.whileReadOnly(dir.url) {
            try DatabaseTools.encryptPlaintextDatabase(
                at: dir.file(), to: out.file(), password: "new-secret", configuration: Self.configuration)
        }
        #expect(FileSnapshot(dir.url) == snapshot)
        #expect(try out.withOpened(password: "new-secret") { try RichDatabase.verify($0, rows: 200) } == [])
    }

    @Test(
        "too little free space: insufficientDiskSpace, nothing changed",
        .enabled(if: SmallDisk.isSupported, "mounting a small tmpfs needs root"))
    func insufficientSpace() throws {
        let disk = try SmallDisk(kilobytes: 700)
        try RichDatabase.makePlaintext(at: disk.file("test.db"), rows: 4000)
        let snapshot = FileSnapshot(disk.url)
        let failure = thrownCase {
            try DatabaseTools.encryptPlaintextDatabase(at: disk.file("test.db"), password: "new-secret", configuration: Self.configuration)
        }
        #expect(failure == "insufficientDiskSpace")
        #expect(FileSnapshot(disk.url) == snapshot)
    }

    // MARK: - Helpers

    private func plaintextFingerprint(_ url: URL) throws -> DatabaseFingerprint {
        let connection = try Connection(path: url.path, mode: .readOnly)
        defer { connection.close() }
        return try DatabaseFingerprint(connection)
    }
}

@Suite("Encrypt in place through a symbolic link", .ownThread)
struct EncryptThroughLinkTests {
    @Test("the real file is encrypted and the link stays a link to it; no plaintext is left behind")
    func encryptThroughALink() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.file("real"), withIntermediateDirectories: true)
        try RichDatabase.makePlaintext(at: dir.file("real/real.db"), rows: 50)
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.db").path, withDestinationPath: "real/real.db")

        try DatabaseTools.encryptPlaintextDatabase(
            at: dir.file("link.db"), password: "new-secret",
            configuration: DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 4000, allowsLegacyKDFIterations: true)))

        let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("link.db").path)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(!DatabaseFile(path: dir.file("real/real.db").path).isPlaintextSQLite)
        #expect(FileSnapshot(dir.url).leftovers == [])
        #expect(dir.openResult("link.db", password: "new-secret") == "none")
        #expect(dir.openResult("real/real.db", password: "new-secret") == "none")
    }

    @Test("rekey through a symbolic link replaces the real file; the link keeps pointing at it")
    func rekeyThroughALink() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.db").path, withDestinationPath: "test.db")
        let manager = dir.manager("link.db")
        try manager.open(password: "old-secret")
        try manager.rekey(to: .password("new-secret"))
        manager.close()
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("link.db").path)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(dir.openResult(password: "new-secret") == "none")
        #expect(FileSnapshot(dir.url).leftovers == [])
    }
}
