import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Rekey", .ownThread)
struct RekeyTests {
    // MARK: - Success

    @Test("rekey changes the password, keeps every object and row, and keeps the manager open")
    func rekeyChangesPassword() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 300)
        let manager = dir.manager()
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        try manager.open(password: "old-secret")
        let before = try manager.withDatabase { try DatabaseFingerprint($0.connection) }
        var fractions: [Double] = []
        try manager.rekey(to: .password("new-secret")) { fractions.append($0) }

        #expect(manager.isOpen)
        #expect(try manager.withDatabase { try DatabaseFingerprint($0.connection) } == before)
        #expect(try manager.withDatabase { try RichDatabase.verify($0, rows: 300) } == [])
        #expect(try manager.withDatabase { try RichDatabase.constraintsWork($0) })
        #expect(delegate.events == [.didOpen, .willRekey, .didRekey])
        #expect(fractions.first == 0 && fractions.last == 1)
        #expect(fractions == fractions.sorted())
        try manager.reopen()
        manager.close()
        #expect(dir.openResult(password: "old-secret") == "incorrectPasswordOrSettings")
        #expect(dir.openResult(password: "new-secret") == "none")
        #expect(FileSnapshot(dir.url).leftovers == [])
        #expect(!Fixture.contains(dir.file(), "MARKER-1"))
    }

    @Test("rekey with options changes kdf_iter and page size; the configuration follows")
    func rekeyChangesCipherSettings() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        let options = CipherOptions.fast(kdfIterations: 5000, pageSize: 4096)
        try manager.rekey(to: .password("new-secret"), options: options)

        #expect(manager.configuration.cipher == options)
        let settings = try manager.cipherInfo.settings
        #expect(settings.kdfIterations == 5000 && settings.pageSize == 4096)
        manager.close()
        #expect(dir.openResult(password: "new-secret") == "incorrectPasswordOrSettings")
        let opened = dir.openResult(password: "new-secret") { $0.cipher = options }
        #expect(opened == "none")
        #expect(
            try dir.withOpened(password: "new-secret", configure: { $0.cipher = options }) {
                try RichDatabase.verify($0, rows: 200)
            } == [])
    }

    @Test("same password, new settings: only the new settings open the file (no silent no-op)")
    func rekeyChangesOnlySettings() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        let options = CipherOptions.fast(kdfIterations: 6000, usesHMAC: false)
        try manager.rekey(to: .password("old-secret"), options: options)
        #expect(try manager.cipherInfo.settings.usesHMAC == false)
        manager.close()

        #expect(dir.openResult(password: "old-secret") == "incorrectPasswordOrSettings")
        #expect(dir.openResult(password: "old-secret") { $0.cipher = options } == "none")
    }

    @Test("rekey to a raw key; open(rawKey:) opens the result")
    func rekeyToRawKey() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        let rawKey = Data((0..<32).map { UInt8($0 * 7 % 256) })
        try manager.rekey(to: .rawKey(rawKey))
        manager.close()

        #expect(dir.openResult(password: "old-secret") == "incorrectPasswordOrSettings")
        let reopened = dir.manager()
        try reopened.open(.rawKey(rawKey))
        #expect(try reopened.withDatabase { try RichDatabase.verify($0, rows: 200) } == [])
    }

    @Test("a WAL database: rows still in the -wal are carried over, WAL mode is kept, no old -wal is left")
    func rekeyWAL() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, wal: true)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        try manager.execute("INSERT INTO tag(name, weight) VALUES ('in-wal', 1)")
        #expect((FileSystem.size(of: dir.file().path + "-wal") ?? 0) > 0)
        try manager.rekey(to: .password("new-secret"))

        #expect(try manager.scalar(String.self, "PRAGMA journal_mode") == "wal")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 21)
        manager.close()
        #expect(!FileManager.default.fileExists(atPath: dir.file().path + "-wal"))
        #expect(try dir.withOpened(password: "new-secret") { try $0.scalar(Int.self, "SELECT count(*) FROM tag") } == 21)
    }

    @Test("virtual tables (FTS4, R*Tree) survive a rekey and still answer queries")
    func rekeyVirtualTables() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "old-secret")
        try manager.executeScript(
            """
            CREATE VIRTUAL TABLE note USING fts4(body);
            INSERT INTO note(body) VALUES ('the quick brown fox'), ('lazy dogs sleep');
            CREATE VIRTUAL TABLE box USING rtree(id, minX, maxX);
            INSERT INTO box VALUES (1, 0, 10), (2, 20, 30);
            """)
        try manager.rekey(to: .password("new-secret"))
        manager.close()

        try dir.withOpened(password: "new-secret") { (db: Database) throws in
            #expect(try db.scalar(Int.self, "SELECT count(*) FROM note WHERE note MATCH 'fox'") == 1)
            #expect(try db.scalar(Int.self, "SELECT id FROM box WHERE minX <= 25 AND maxX >= 25") == 2)
        }
    }

    @Test("rekey works on the file that is open even if databaseURL was changed since")
    func rekeyUsesTheOpenFile() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try RichDatabase.makeEncrypted(in: dir, name: "other.db")
        let other = Fixture.bytes(dir.file("other.db"))
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        manager.databaseURL = dir.file("other.db")
        try manager.rekey(to: .password("new-secret"))
        manager.close()

        #expect(Fixture.bytes(dir.file("other.db")) == other)
        #expect(dir.openResult(password: "new-secret") == "none")
    }

    @Test("the new file keeps the database's permissions")
    func rekeyKeepsPermissions() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: dir.file().path)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        try manager.rekey(to: .password("new-secret"))
        #expect(permissions(dir.file()) == 0o600)
    }

    // MARK: - Refusals before anything starts

    @Test("rekey refuses without events when closed, inside a transaction, with a blank password or a 4.x option")
    func rekeyRefusals() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let manager = dir.manager()
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        #expect(throws: DatabaseManagerError.notOpen) { try manager.rekey(to: .password("new-secret")) }
        try manager.open(password: "old-secret")
        let snapshot = FileSnapshot(dir.url)

        // Inside the manager's own transaction closure: refused before anything is looked at.
        #expect(thrownCase { try manager.transactionSync { _ in try manager.rekey(to: .password("new-secret")) } } == "reentrantCall")
        try manager.execute("BEGIN")
        #expect(throws: DatabaseManagerError.transactionInProgress) { try manager.rekey(to: .password("new-secret")) }
        try manager.execute("ROLLBACK")
        #expect(thrownCase { try manager.rekey(to: .password("   ")) } == "invalidPassword")
        #expect(thrownCase { try manager.rekey(to: .rawKey(Data(count: 16))) } == "invalidKeyLength")
        let modern = CipherOptions(kdfAlgorithm: .sha512)
        if let version = DatabaseTools.linkedSQLCipherVersion, version < SQLCipherVersion(4, 0, 0) {
            #expect(thrownCase { try manager.rekey(to: .password("new-secret"), options: modern) } == "unsupportedOption")
        }
        #expect(thrownCase { try manager.rekey(to: .password("new-secret"), options: CipherOptions(pageSize: 1000)) } == "invalidOption")
        #expect(delegate.events == [.didOpen])
        #expect(FileSnapshot(dir.url) == snapshot)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM book") == 200)
    }

    @Test("a wrong old password never opens the database, so nothing can be rekeyed and nothing changes")
    func wrongOldPassword() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let snapshot = FileSnapshot(dir.url)
        let manager = dir.manager()
        #expect(thrownCase { try manager.open(password: "not-the-password") } == "incorrectPasswordOrSettings")
        #expect(throws: DatabaseManagerError.notOpen) { try manager.rekey(to: .password("new-secret")) }
        #expect(throws: DatabaseManagerError.notOpen) { try manager.decrypt(to: dir.file("plain.db")) }
        #expect(FileSnapshot(dir.url) == snapshot)
    }

    // MARK: - Failures after willRekey

    @Test(
        "another manager of this process has the database open: it is paused, then reopened with the new key",
        arguments: [false, true])
    func rekeyWithSiblingOpen(wal: Bool) throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, wal: wal)
        let other = dir.manager()
        let otherDelegate = RecordingDelegate()
        other.delegate = otherDelegate
        try other.open(password: "old-secret")
        let manager = dir.manager()
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        try manager.open(password: "old-secret")

        try manager.rekey(to: .password("new-secret"))
        #expect(delegate.events == [.didOpen, .willRekey, .didRekey])
        #expect(otherDelegate.events == [.didOpen, .didRekey])
        #expect(FileSnapshot(dir.url).leftovers == [])
        try other.execute("INSERT INTO tag(name, weight) VALUES ('other', 1)")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 21)
        #expect(other.isCurrentPassword("new-secret"))
        manager.close()
        other.close()
        #expect(dir.openResult(password: "old-secret") == "incorrectPasswordOrSettings")
        #expect(try dir.withOpened(password: "new-secret") { try $0.scalar(Int.self, "SELECT count(*) FROM tag") } == 21)
    }

    @Test(
        "another program has the database open: the rekey succeeds in place, that program's next statement fails, nothing written",
        arguments: [false, true])
    func rekeyWhileAnotherProgramHasItOpen(wal: Bool) throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, wal: wal)
        let shell = try Interop.require(Interop.sqlcipherShell, "the sqlcipher shell")
        // The shell keeps the database open (reading its stdin) until the pipe closes.
        let process = ChildProcess()
        process.executableURL = shell
        process.arguments = [dir.file().path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("PRAGMA key = 'old-secret';\nPRAGMA kdf_iter = 4000;\nSELECT count(*) FROM tag;\n".utf8))
        _ = output.fileHandleForReading.availableData
        let manager = dir.manager()
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        try manager.open(password: "old-secret")
        let inode = FileSystem.identity(of: dir.file().path)

        try manager.rekey(to: .password("new-secret"))
        #expect(delegate.events == [.didOpen, .willRekey, .didRekey])
        #expect(FileSystem.identity(of: dir.file().path) == inode)
        // WAL: the new pages into the file now, so that the shell's close has nothing to copy.
        if wal { try manager.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        let rekeyed = Fixture.bytes(dir.file())
        // The shell, still on the old key, tries to write: refused, nothing reaches the file.
        input.fileHandleForWriting.write(Data("INSERT INTO tag(name, weight) VALUES ('stale', 1);\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let shellErrors = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(shellErrors.contains(notADatabase), "\(shellErrors)")
        #expect(Fixture.bytes(dir.file()) == rekeyed)
        #expect(FileSnapshot(dir.url).leftovers == [])
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag WHERE name = 'stale'") == 0)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM book") == 200)
        manager.close()
        #expect(dir.openResult(password: "old-secret") == "incorrectPasswordOrSettings")
    }

    @Test(
        "a read-only database file: permissionDenied, file unchanged, still open with the old password",
        .enabled(if: ReadOnly.isSupported, "cannot make a file read-only here (root without chattr +i)"))
    func rekeyReadOnlyFile() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let manager = dir.manager()
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        try manager.open(password: "old-secret")
        let snapshot = FileSnapshot(dir.url)
        let failure = ReadOnly.whileReadOnly(dir.file()) { thrownCase { try manager.rekey(to: .password("new-secret")) } }

        #expect(failure == "permissionDenied")
        #expect(delegate.events == [.didOpen, .willRekey, .didFailToRekey("permissionDenied")])
        #expect(FileSnapshot(dir.url) == snapshot)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM book") == 200)
        manager.close()
        #expect(dir.openResult(password: "old-secret") == "none")
    }

    @Test(
        "a read-only directory: permissionDenied, nothing written",
        .enabled(if: ReadOnly.isSupported, "cannot make a directory read-only here (root without chattr +i)"))
    func rekeyReadOnlyDirectory() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        let snapshot = FileSnapshot(dir.url)
        let failure = ReadOnly.whileReadOnly(dir.url) { thrownCase { try manager.rekey(to: .password("new-secret")) } }

        #expect(failure == "permissionDenied")
        #expect(FileSnapshot(dir.url) == snapshot)
        #expect(manager.isOpen)
    }

    @Test(
        "too little free space: insufficientDiskSpace before anything is written",
        .enabled(if: SmallDisk.isSupported, "mounting a small tmpfs needs root"))
    func rekeyInsufficientSpace() throws {
        let (disk, manager) = try openOnSmallDisk(kilobytes: 700)
        #expect((FileSystem.size(of: disk.file("test.db").path) ?? 0) > 350_000)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        let snapshot = FileSnapshot(disk.url)

        #expect(thrownCase { try manager.rekey(to: .password("new-secret")) } == "insufficientDiskSpace")
        #expect(delegate.events == [.willRekey, .didFailToRekey("insufficientDiskSpace")])
        #expect(FileSnapshot(disk.url) == snapshot)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM book") == 4000)
    }

    @Test(
        "the disk fills up after the space check: diskFull, the rekey rolled back, the old database is open and intact",
        .enabled(if: SmallDisk.isSupported, "mounting a small tmpfs needs root"))
    func rekeyDiskFillsDuringRekey() throws {
        let (disk, manager) = try openOnSmallDisk(kilobytes: 1500)
        let snapshot = FileSnapshot(disk.url)
        let filler = disk.file("filler")
        let failure = thrownCase {
            try manager.rekey(to: .password("new-secret")) { fraction in
                // Another program takes the free space once the rekey has started.
                guard fraction == 0, !FileManager.default.fileExists(atPath: filler.path) else { return }
                let free = (try? FileSystem.availableSpace(in: disk.url.path)) ?? 0
                _ = FileManager.default.createFile(atPath: filler.path, contents: Data(count: Int(max(free - 8192, 0))))
            }
        }
        try? FileManager.default.removeItem(at: filler)

        #expect(failure == "diskFull")
        #expect(FileSnapshot(disk.url) == snapshot)
        #expect(try manager.withDatabase { try RichDatabase.verify($0, rows: 4000) } == [])
        manager.close()
        #expect(manager.openResult(password: "old-secret") == "none")
    }

    /// A 4000-row database copied onto a small tmpfs and opened there with "old-secret".
    private func openOnSmallDisk(kilobytes: Int) throws -> (SmallDisk, DatabaseManager) {
        let disk = try SmallDisk(kilobytes: kilobytes)
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 4000)
        try FileManager.default.copyItem(at: dir.file(), to: disk.file("test.db"))
        let manager = DatabaseManager(url: disk.file("test.db"), configuration: dir.manager().configuration)
        try manager.open(password: "old-secret")
        return (disk, manager)
    }
}

/// A file's permission bits.
func permissions(_ url: URL) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue
}

extension DatabaseManager {
    /// The error case name when this manager opens with `password` ("none" when it opens); closes it after.
    func openResult(password: String) -> String {
        defer { close() }
        return thrownCase { try open(password: password) }
    }
}
