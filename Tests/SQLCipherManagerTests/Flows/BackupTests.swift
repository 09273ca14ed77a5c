import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Backup", .ownThread)
struct BackupTests {
    /// Opens a backup on a fresh manager with `password` and returns the problems found
    /// (RichDatabase's checks and `integrity_check`), or the error's case name.
    static func problems(in url: URL, password: String, rows: Int, kdfIterations: Int = 4000) -> [String] {
        let manager = TemporaryDirectory.manager(at: url, kdfIterations: kdfIterations)
        defer { manager.close() }
        do {
            try manager.open(password: password)
            return try manager.withDatabase { db in
                let check = try db.fetchAll("PRAGMA integrity_check").map { $0.value(0, as: String.self) ?? "" }
                return try RichDatabase.verify(db, rows: rows) + (check == ["ok"] ? [] : check)
            }
        } catch {
            return [outcomeName(error)]
        }
    }

    @Test("a backup is a complete, verified copy with the source's key, in either journal mode", arguments: [false, true])
    func backupMatchesSource(wal: Bool) throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 300, wal: wal)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir.file().path)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        let before = try manager.withDatabase { try DatabaseFingerprint($0.connection) }
        var fractions: [Double] = []
        try manager.backup(to: dir.file("backup.db")) { fractions.append($0) }

        #expect(manager.isOpen)
        #expect(fractions.first == 0)
        #expect(fractions.last == 1)
        #expect(fractions == fractions.sorted())
        #expect(Self.problems(in: dir.file("backup.db"), password: "old-secret", rows: 300) == [])
        let copy = TemporaryDirectory.manager(at: dir.file("backup.db"))
        try copy.open(password: "old-secret")
        #expect(try copy.withDatabase { try DatabaseFingerprint($0.connection) } == before)
        #expect(try copy.scalar(String.self, "PRAGMA journal_mode") == (wal ? "wal" : "delete"))
        copy.close()
        let mode = try FileManager.default.attributesOfItem(atPath: dir.file("backup.db").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // A fresh salt: the same key, another file.
        #expect(Fixture.bytes(dir.file("backup.db")).prefix(16) != Fixture.bytes(dir.file()).prefix(16))
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    @Test("a backup with a new password, its SecretBytes form, a raw key or other settings opens only with that key")
    func backupWithAnotherKey() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 50)
        let manager = dir.manager()
        try manager.open(password: "old-secret")

        try manager.backup(to: dir.file("new.db"), key: .password("new-secret"))
        #expect(Self.problems(in: dir.file("new.db"), password: "new-secret", rows: 50) == [])
        #expect(Self.problems(in: dir.file("new.db"), password: "old-secret", rows: 50) == ["incorrectPasswordOrSettings"])

        try manager.backup(to: dir.file("secret.db"), key: .password(SecretBytes(Array("bytes-secret".utf8))))
        #expect(Self.problems(in: dir.file("secret.db"), password: "bytes-secret", rows: 50) == [])

        try manager.backup(to: dir.file("slow.db"), key: .password("new-secret"), options: .fast(kdfIterations: 6000))
        #expect(Self.problems(in: dir.file("slow.db"), password: "new-secret", rows: 50, kdfIterations: 6000) == [])
        #expect(Self.problems(in: dir.file("slow.db"), password: "new-secret", rows: 50) == ["incorrectPasswordOrSettings"])

        let rawKey = Data((0..<32).map { UInt8($0 * 7 % 256) })
        try manager.backup(to: dir.file("raw.db"), key: .rawKey(rawKey))
        let raw = TemporaryDirectory.manager(at: dir.file("raw.db"))
        try raw.open(.rawKey(rawKey))
        #expect(try raw.withDatabase { try RichDatabase.verify($0, rows: 50) } == [])
        raw.close()
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    @Test("bad inputs give typed errors and change no file")
    func refusals() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 20)
        let manager = dir.manager()
        #expect(throws: DatabaseManagerError.notOpen) { try manager.backup(to: dir.file("backup.db")) }
        try manager.open(password: "old-secret")
        try Data("occupied".utf8).write(to: dir.file("taken.db"))
        try Data("stale".utf8).write(to: dir.file("orphan.db-wal"))
        try Data("slots".utf8).write(to: dir.file("slotted.db.scm-keys"))
        let snapshot = FileSnapshot(dir.url)

        #expect(thrownCase { try manager.backup(to: dir.file("taken.db")) } == "fileAlreadyExists")
        #expect(thrownCase { try manager.backup(to: dir.file()) } == "fileAlreadyExists")
        #expect(thrownCase { try manager.backup(to: dir.file("orphan.db")) } == "fileAlreadyExists")
        #expect(thrownCase { try manager.backup(to: dir.file("slotted.db")) } == "fileAlreadyExists")
        #expect(thrownCase { try manager.backup(to: dir.file("no/such/directory.db")) } == "parentDirectoryMissing")
        #expect(thrownCase { try manager.backup(to: dir.file("short.db"), key: .rawKey(Data(count: 5))) } == "invalidKeyLength")
        #expect(thrownCase { try manager.backup(to: dir.file("blank.db"), key: .password("  ")) } == "invalidPassword")
        #expect(
            thrownCase {
                try manager.transactionSync { _ in try manager.backup(to: dir.file("inside.db")) }
            } == "reentrantCall")
        #expect(FileSnapshot(dir.url) == snapshot)
        manager.close()
        #expect(throws: DatabaseManagerError.notOpen) { try manager.backup(to: dir.file("closed.db")) }
        #expect(FileSnapshot(dir.url) == snapshot)
    }

    @Test("a snapshot the source's lock keeps out is refused as busy, naming the source; nothing is left")
    func lockedSource() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 20)
        let holder = dir.manager()
        try holder.open(password: "old-secret")
        let manager = dir.manager { $0.busyTimeout = .milliseconds(100) }
        try manager.open(password: "old-secret")
        let before = FileSnapshot(dir.url)
        var locked = false
        do {
            // Progress 0 comes once the backup's connection is open, before its snapshot.
            try manager.backup(to: dir.file("backup.db")) { _ in
                if !locked { locked = (try? holder.withDatabase { try $0.executeScript("BEGIN EXCLUSIVE") }) != nil }
            }
            Issue.record("the backup read the source under another connection's exclusive lock")
        } catch let error as DatabaseManagerError {
            #expect(error.code == .busy)
            #expect(error.path == dir.file().path)
        }
        #expect(locked)
        try holder.withDatabase { try $0.executeScript("ROLLBACK") }
        #expect(FileSnapshot(dir.url) == before)
    }

    @Test("a key-slot database is backed up as a password database; the same key is refused")
    func keySlotDatabase() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager(rows: 40)
        let snapshot = FileSnapshot(dir.url)
        #expect(throws: DatabaseManagerError.keySlots(.backupNeedsItsOwnKey(path: dir.file().path))) {
            try manager.backup(to: dir.file("backup.db"))
        }
        #expect(FileSnapshot(dir.url) == snapshot)

        try manager.backup(to: dir.file("backup.db"), key: .password("backup-secret"))
        #expect(FileManager.default.fileExists(atPath: dir.slotFile("backup.db").path) == false)
        let copy = dir.manager("backup.db")
        try copy.open(password: "backup-secret")
        #expect(!copy.keySlots.isEnabled)
        #expect(try copy.scalar(Int.self, "SELECT count(*) FROM item") == 40)
        copy.close()
        #expect(itemCount(in: dir, password: "secret", name: "backup.db") != "40")
    }

    @Test("the async backup runs on the manager's own thread and gives the same copy")
    func asyncBackup() async throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 100, wal: true)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        let threads = Threads()
        try await manager.backup(to: dir.file("backup.db"), key: .password("new-secret")) { _ in
            threads.record(ThreadExecutor.currentExecutorName)
        }
        #expect(threads.names == ["SQLCipher.backup"])
        #expect(Self.problems(in: dir.file("backup.db"), password: "new-secret", rows: 100) == [])
    }

    @Test("cancelling an async backup mid-copy leaves no file under the final name and no leftover")
    func cancelledBackup() async throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 20_000, wal: true)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        let started = Threads()
        let task = Task {
            try await manager.backup(to: dir.file("backup.db")) { fraction in
                if fraction > 0 { started.record("copying") }
            }
        }
        let deadline = Date().addingTimeInterval(120)
        while started.names.isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        let outcome = await task.result
        let leftovers = FileSnapshot(dir.url).leftovers
        print("cancelled backup: \((try? outcome.get()) == nil ? "interrupted" : "finished first")")
        switch outcome {
        case .failure(let error):
            #expect(error is CancellationError, "\(error)")
            #expect(FileManager.default.fileExists(atPath: dir.file("backup.db").path) == false)
        case .success:
            // The cancel came after the copy (the verification and link are not interrupted).
            #expect(Self.problems(in: dir.file("backup.db"), password: "old-secret", rows: 20_000) == [])
        }
        #expect(leftovers == [])
        #expect(manager.isOpen)
    }

    /// The executor names the progress closure ran on.
    final class Threads: @unchecked Sendable {
        // @unchecked: `seen` is read and written only under `lock`.
        private let lock = NSLock()
        private var seen: Set<String> = []
        func record(_ name: String?) { lock.withLock { _ = seen.insert(name ?? "other") } }
        var names: [String] { lock.withLock { seen.sorted() } }
    }

    @Test("the sqlcipher shell opens a backup with its key")
    func shellOpensBackup() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 120, wal: true)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        try manager.backup(to: dir.file("backup.db"), key: .password("it's a backup"))
        let script = """
            PRAGMA key = \(sqlLiteral("it's a backup"));
            PRAGMA kdf_iter = 4000;
            PRAGMA integrity_check;
            SELECT count(*) FROM book;
            SELECT title FROM book ORDER BY id LIMIT 1;

            """
        let output = try sqlcipherShell(dir.file("backup.db").path, script)
        #expect(output.status == 0, "sqlcipher: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").map(String.init).suffix(3) == ["ok", "120", "MARKER-0"])
    }
}
