import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Every open diagnosis built from a real file; each leaves the file byte-identical.
@Suite struct DiagnosisTests {
    /// Opens `url` with "secret" and returns the error case, checking the file did not change.
    private func openCase(_ dir: TemporaryDirectory, _ url: URL) -> String {
        let before = Fixture.bytes(url)
        let manager = DatabaseManager(url: url, configuration: DatabaseConfiguration(cipher: .fast()))
        let result = thrownCase { try manager.open(password: "secret") }
        #expect(!manager.isOpen)
        #expect(Fixture.bytes(url) == before, "the file changed")
        return result
    }

    @Test func plaintextSQLiteFile() throws {
        let dir = TemporaryDirectory()
        try Fixture.makePlaintextDatabase(at: dir.file())
        #expect(openCase(dir, dir.file()) == "plaintextDatabase")
    }

    @Test func emptyFile() throws {
        let dir = TemporaryDirectory()
        try Data().write(to: dir.file())
        #expect(openCase(dir, dir.file()) == "notADatabase")
    }

    @Test func randomBytesOfAnOddSize() throws {
        let dir = TemporaryDirectory()
        try Data((0..<1000).map { _ in UInt8.random(in: 0...255) }).write(to: dir.file())
        #expect(openCase(dir, dir.file()) == "notADatabase")
    }

    @Test func randomBytesOfAPageMultipleLookLikeAWrongKey() throws {
        // Without the key, whole pages of random bytes cannot be told from an encrypted file.
        let dir = TemporaryDirectory()
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255) }).write(to: dir.file())
        #expect(openCase(dir, dir.file()) == "incorrectPasswordOrSettings")
    }

    @Test func truncatedEncryptedFile() throws {
        let dir = TemporaryDirectory()
        let url = try Fixture.makeEncryptedDatabase(in: dir, rows: 2000)
        let bytes = Fixture.bytes(url)
        try bytes.prefix(bytes.count / 2 + 100).write(to: url)
        #expect(openCase(dir, url) == "notADatabase")
        try bytes.prefix(bytes.count / 2 / 1024 * 1024).write(to: url)
        #expect(openCase(dir, url) == "corrupt")
    }

    @Test func flippedByteInPageOneLooksLikeAWrongKey() throws {
        // Page 1's HMAC is what proves the key, so damage there cannot be told from a wrong key.
        let dir = TemporaryDirectory()
        let url = try Fixture.makeEncryptedDatabase(in: dir, rows: 3)
        var bytes = Fixture.bytes(url)
        bytes[100] ^= 0xFF
        try bytes.write(to: url)
        #expect(openCase(dir, url) == "incorrectPasswordOrSettings")
    }

    @Test func flippedByteInADataPageIsCorruptWhenRead() throws {
        let dir = TemporaryDirectory()
        let page = LinkedFormat.pageSize
        let url = try Fixture.makeEncryptedDatabase(in: dir, rows: 500 * page / 1024)
        var bytes = Fixture.bytes(url)
        #expect(bytes.count >= 4 * page)
        bytes[3 * page + 200] ^= 0x01  // inside page 4
        try bytes.write(to: url)
        let before = Fixture.bytes(url)
        // A plain open reads only the schema; the damaged page fails when read.
        let manager = dir.manager()
        try manager.open(password: "secret")
        // It is said like at open: corrupt, with the path and SQLite's error kept.
        let error = try #require(thrownError { _ = try manager.fetchAll("SELECT * FROM item") } as? DatabaseManagerError)
        guard case .corrupt(_, let underlying) = error else { throw TestFailure() }
        #expect(underlying?.code == .corrupt)
        #expect(manager.isOpen)
        // The check reports it too: as a list (3.x reads the page as zeros), or as corrupt when
        // the page cannot be read at all (4.x stops at its failed HMAC check).
        switch Result(catching: { try manager.integrityProblems() }) {
        case .success(let problems): #expect(!problems.isEmpty)
        case .failure(let error): #expect(outcomeName(error) == "corrupt", "\(error)")
        }
        manager.close()
        // With checksIntegrityOnOpen the open itself reports it.
        let checking = dir.manager { $0.checksIntegrityOnOpen = true }
        #expect(thrownCase { try checking.open(password: "secret") } == "corrupt")
        #expect(!checking.isOpen)
        #expect(Fixture.bytes(url) == before)
    }

    /// The same on a WAL database, whose reads go through the reader pool: corrupt, the manager
    /// stays open, and the write that met the page leaves no `-journal` or `-wal` behind it.
    @Test func flippedByteInADataPageOfAWALDatabaseIsCorruptOnEveryPath() throws {
        let dir = TemporaryDirectory()
        let page = LinkedFormat.pageSize
        let writer = dir.manager { $0.journalMode = .wal }
        try writer.create(password: "secret")
        try writer.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try writer.transactionSync { db in
            for index in 0..<(500 * page / 1024) { try db.execute("INSERT INTO item(name) VALUES (?)", "MARKER-\(index)") }
        }
        writer.close()
        var bytes = Fixture.bytes(dir.file())
        #expect(bytes.count >= 4 * page)
        bytes[3 * page + 200] ^= 0x01  // inside page 4
        try bytes.write(to: dir.file())
        let manager = dir.manager { $0.journalMode = .wal }
        try manager.open(password: "secret")
        #expect(thrownCase { _ = try manager.fetchAll("SELECT * FROM item") } == "corrupt")
        #expect(thrownCase { _ = try manager.readSync { try $0.fetchAll("SELECT * FROM item") } } == "corrupt")
        #expect(thrownCase { try manager.execute("UPDATE item SET name = name || 'x'") } == "corrupt")
        #expect(manager.isOpen)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM sqlite_master") == 1)
        manager.close()
        #expect(Fixture.bytes(dir.file()) == bytes)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"], "\(FileSnapshot(dir.url))")
    }

    /// `SQLITE_NOTADB` after the key was proven: corrupt while the key still unlocks the file
    /// (with an `SQLITE_CORRUPT` underlying error, as SQLCipher 3 reports the same damage),
    /// keyChanged once it does not.
    @Test func aPageThatDoesNotDecryptIsCorruptOnlyWhileTheKeyStillUnlocks() throws {
        let notADatabase = SQLiteError(extendedCode: .notADatabase, message: "file is not a database", sql: "SELECT 1")
        let damaged = DatabaseManagerError.unreadablePage(notADatabase, path: "/x/test.db", keyStillUnlocks: true)
        guard case .corrupt(let path, let underlying) = damaged else { throw TestFailure() }
        #expect(path == "/x/test.db" && underlying?.code == .corrupt && underlying?.sql == "SELECT 1")
        #expect(damaged.description.contains("malformed") && damaged.description.contains("Restore it from a backup"))
        #expect(
            DatabaseManagerError.unreadablePage(notADatabase, path: "/x/test.db", keyStillUnlocks: false) == .keyChanged(path: "/x/test.db")
        )
        let corrupt = SQLiteError(extendedCode: .corrupt, message: "database disk image is malformed")
        #expect(DatabaseManagerError.damagedPage(path: "/x/test.db", after: corrupt) == .corrupt(path: "/x/test.db", underlying: corrupt))
    }

    @Test func aSoundDatabasePassesTheIntegrityCheck() throws {
        let dir = TemporaryDirectory()
        _ = try Fixture.makeEncryptedDatabase(in: dir, rows: 500)
        let manager = dir.manager { $0.checksIntegrityOnOpen = true }
        try manager.open(password: "secret")
        #expect(try manager.integrityProblems().isEmpty)
    }

    @Test func pathIsADirectory() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.file(), withIntermediateDirectories: false)
        #expect(openCase(dir, dir.file()) == "isDirectory")
        #expect(throws: DatabaseManagerError.isDirectory(path: dir.file().path)) { try dir.manager().create(password: "secret") }
    }

    @Test func parentDirectoryMissing() {
        let dir = TemporaryDirectory()
        let url = dir.url.appendingPathComponent("missing/test.db")
        #expect(openCase(dir, url) == "parentDirectoryMissing")
    }

    @Test func missingFile() {
        let dir = TemporaryDirectory()
        #expect(openCase(dir, dir.file()) == "fileNotFound")
        #expect(!FileManager.default.fileExists(atPath: dir.file().path))
    }

    @Test func wrongPassword() throws {
        let dir = TemporaryDirectory()
        let url = try Fixture.makeEncryptedDatabase(in: dir, password: "other")
        #expect(openCase(dir, url) == "incorrectPasswordOrSettings")
    }

    @Test func errorDescriptionsSayWhatToDoAndNeverContainThePassword() throws {
        let dir = TemporaryDirectory()
        let url = try Fixture.makeEncryptedDatabase(in: dir, password: "hunter2-secret")
        let manager = dir.manager()
        do {
            try manager.open(password: "wrong-hunter3")
            Issue.record("open should fail")
        } catch {
            let text = "\(error) \(String(reflecting: error)) \(error.localizedDescription)"
            #expect(!text.contains("hunter"))
            #expect(text.contains(url.path))
            #expect(text.contains("Try again"))
        }
    }
}
