import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Connections of this process on a file that another process changes (`FaultInjectionHelper`,
/// not killed here, on `<dir>/test.db`, KDF 4000): re-keyed in place (`rekey`), they fail their
/// next statement and write nothing with the old key; a change that needs a new file
/// (`settings`, `encrypt-in-place`) is refused there while the file is open here, naming this
/// process, and nothing changes — no connection is ever left on a replaced file.
@Suite("Stale connections: a file re-keyed in place, or refused a replace, by another process", .ownThread)
struct StaleConnectionTests {
    /// An encrypted `test.db` ("old-secret", rollback journal or WAL) with the `extra` table
    /// the helper's rekey writes to.
    private func encryptedDatabase(wal: Bool) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, wal: wal)
        try dir.withOpened(password: "old-secret") { try $0.execute("CREATE TABLE extra(id INTEGER PRIMARY KEY, value INTEGER)") }
        return dir
    }

    @Test("a manager left on the old key: its next write and its next read throw keyChanged; nothing is written with the old key")
    func staleManager() throws {
        let dir = try encryptedDatabase(wal: false)
        let writer = dir.manager()
        let delegate = RecordingDelegate()
        writer.delegate = delegate
        try writer.open(password: "old-secret")
        let reader = dir.manager()
        try reader.open(password: "old-secret")
        let inode = FileSystem.identity(of: dir.file().path)

        let run = try FaultInjection.run("rekey", in: dir.url, kill: .never)
        #expect(run.status == 0, "\(run.errorOutput)")
        // Re-keyed in place: the same file, no copy renamed over it.
        #expect(FileSystem.identity(of: dir.file().path) == inode)
        let rekeyed = Fixture.bytes(dir.file())

        #expect(thrownCase { try writer.execute("INSERT INTO tag(name, weight) VALUES ('stale', 1)") } == "keyChanged")
        #expect(thrownCase { _ = try reader.fetchAll("SELECT name FROM tag") } == "keyChanged")
        #expect(Fixture.bytes(dir.file()) == rekeyed)
        #expect(!writer.isOpen && !reader.isOpen)
        #expect(delegate.events == [.didOpen, .didFail("keyChanged")])
        // Opened again with the current password, every row is there.
        try writer.open(password: "new-secret")
        #expect(try writer.scalar(Int.self, "SELECT count(*) FROM extra") == 500)
        #expect(try writer.scalar(Int.self, "SELECT count(*) FROM tag") == 20)
    }

    @Test("any SQLite connection left on the old key fails its next statement (re-keyed in place)")
    func staleRawConnection() throws {
        let dir = try encryptedDatabase(wal: false)
        let stale = try Connection(path: dir.file().path, mode: .readWrite)
        defer { stale.close() }
        try Array("old-secret".utf8).withUnsafeBytes { try stale.key($0) }
        try stale.executeScript("PRAGMA kdf_iter = 4000")
        try stale.executeScript("SELECT count(*) FROM tag")

        let run = try FaultInjection.run("rekey", in: dir.url, kill: .never)
        #expect(run.status == 0, "\(run.errorOutput)")

        let error = thrownError { try stale.executeScript("INSERT INTO tag(name, weight) VALUES ('stale', 1)") }
        // Re-keyed in place: page 1 no longer decrypts with the old key.
        #expect((error as? SQLiteError)?.code == .notADatabase, "\(String(describing: error))")
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(try dir.withOpened(password: "new-secret") { try $0.scalar(Int.self, "SELECT count(*) FROM tag") } == 20)
    }

    @Test("a WAL database this process has open is re-keyed in place by another process: keyChanged here, no leftovers")
    func walOpenHereIsRekeyedThere() throws {
        let dir = try encryptedDatabase(wal: true)
        let manager = dir.manager()
        try manager.open(password: "old-secret")

        let run = try FaultInjection.run("rekey", in: dir.url, kill: .never)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(FileSnapshot(dir.url).leftovers == [])
        #expect(thrownCase { _ = try manager.scalar(Int.self, "SELECT count(*) FROM extra") } == "keyChanged")
        #expect(dir.openResult(password: "old-secret") == "incorrectPasswordOrSettings")
        // The helper's 500 rows were committed before its rekey; the new password sees them.
        try manager.open(password: "new-secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM extra") == 500)
    }

    @Test(
        "a manager open here, idle between transactions: the settings change there is refused, the file unchanged",
        arguments: [false, true])
    func managerOpenHere(wal: Bool) throws {
        let dir = try encryptedDatabase(wal: wal)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        _ = try manager.scalar(Int.self, "SELECT count(*) FROM tag")
        let before = Fixture.bytes(dir.file())

        let run = try FaultInjection.run("settings", in: dir.url, kill: .never)
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("open in another program (process \(getpid())"), "\(run.errorOutput)")
        #expect(Fixture.bytes(dir.file()) == before)
        #expect(FileSnapshot(dir.url).leftovers == [])
        try manager.execute("INSERT INTO tag(name, weight) VALUES ('after', 1)")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 21)
    }

    @Test("a plain SQLite connection open here: encrypting the file in place there is refused, it stays plaintext")
    func rawConnectionOpenHere() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makePlaintext(at: dir.file(), rows: 200)
        let open = try Connection(path: dir.file().path, mode: .readWrite)
        defer { open.close() }
        try open.executeScript("SELECT count(*) FROM tag")
        let before = Fixture.bytes(dir.file())

        let run = try FaultInjection.run("encrypt-in-place", in: dir.url, kill: .never)
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("open in another program (process \(getpid())"), "\(run.errorOutput)")
        #expect(Fixture.bytes(dir.file()) == before)
        #expect(DatabaseFile(path: dir.file().path).isPlaintextSQLite)
        try open.executeScript("INSERT INTO tag(name, weight) VALUES ('after', 1)")
    }

    @Test("nobody else has it open: the settings change there succeeds", arguments: [false, true])
    func nobodyElse(wal: Bool) throws {
        let dir = try encryptedDatabase(wal: wal)
        let run = try FaultInjection.run("settings", in: dir.url, kill: .never)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(FileSnapshot(dir.url).leftovers == [])
        let changed = TemporaryDirectory.manager(at: dir.file(), kdfIterations: 5000)
        try changed.open(password: "old-secret")
        #expect(try changed.scalar(Int.self, "SELECT count(*) FROM tag") == 20)
        changed.close()
    }
}
