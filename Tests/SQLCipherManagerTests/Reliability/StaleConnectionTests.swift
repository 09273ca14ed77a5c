import Foundation
import Testing

@testable import SQLCipherManager

/// Connections left on a file that another process re-encrypted and replaced. The other
/// process is `FaultInjectionHelper` (not killed here): `rekey` or `encrypt-in-place` on
/// `<dir>/test.db`, KDF 4000.
@Suite("Stale connections: a file replaced by another process")
struct StaleConnectionTests {
    /// An encrypted `test.db` ("old-secret", rollback journal or WAL) with the `extra` table
    /// the helper's rekey writes to.
    private func encryptedDatabase(wal: Bool) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, wal: wal)
        try dir.withOpened(password: "old-secret") { try $0.execute("CREATE TABLE extra(id INTEGER PRIMARY KEY, value INTEGER)") }
        return dir
    }

    @Test("a manager left on the old file: its next write and its next read throw databaseReplaced; nothing reaches the old file")
    func staleManager() throws {
        let dir = try encryptedDatabase(wal: false)
        let writer = dir.manager()
        let delegate = RecordingDelegate()
        writer.delegate = delegate
        try writer.open(password: "old-secret")
        let reader = dir.manager()
        try reader.open(password: "old-secret")
        // A second name for the file the managers have open: it stays after the path is replaced.
        try FileManager.default.linkItem(at: dir.file(), to: dir.file("old-inode"))

        let run = try FaultInjection.run("rekey", in: dir.url, kill: .never)
        #expect(run.status == 0, "\(run.errorOutput)")
        let retired = Fixture.bytes(dir.file("old-inode"))

        #expect(thrownCase { try writer.execute("INSERT INTO tag(name, weight) VALUES ('stale', 1)") } == "databaseReplaced")
        #expect(thrownCase { _ = try reader.fetchAll("SELECT name FROM tag") } == "databaseReplaced")
        #expect(Fixture.bytes(dir.file("old-inode")) == retired)
        #expect(!writer.isOpen && !reader.isOpen)
        #expect(delegate.events == [.opened, .databaseError("databaseReplaced")])
        // Opened again with the current password, the manager sees the new file, every row there.
        try writer.open(password: "new-secret")
        #expect(try writer.scalar(Int.self, "SELECT count(*) FROM extra") == 500)
        #expect(try writer.scalar(Int.self, "SELECT count(*) FROM tag") == 20)
    }

    @Test(
        "any SQLite connection left on the old file fails its next statement (the file is retired), encrypted or plaintext",
        arguments: ["rekey", "encrypt-in-place"])
    func staleRawConnection(flow: String) throws {
        let dir: TemporaryDirectory
        if flow == "rekey" {
            dir = try encryptedDatabase(wal: false)
        } else {
            dir = TemporaryDirectory()
            try RichDatabase.makePlaintext(at: dir.file(), rows: 200)
        }
        let stale = try Connection(path: dir.file().path, mode: .readWrite)
        defer { stale.close() }
        if flow == "rekey" {
            try Array("old-secret".utf8).withUnsafeBytes { try stale.key($0) }
            try stale.executeScript("PRAGMA kdf_iter = 4000")
        }
        try stale.executeScript("SELECT count(*) FROM tag")

        let run = try FaultInjection.run(flow, in: dir.url, kill: .never)
        #expect(run.status == 0, "\(run.errorOutput)")

        let error = thrownError { try stale.executeScript("INSERT INTO tag(name, weight) VALUES ('stale', 1)") }
        #expect((error as? SQLiteError)?.message?.contains(SourceWriteLock.tombstoneName) == true, "\(String(describing: error))")
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(try dir.withOpened(password: "new-secret") { try $0.scalar(Int.self, "SELECT count(*) FROM tag") } == 20)
    }

    @Test("a WAL database this process has open is not replaced by another process: openElsewhere, no leftovers")
    func walOpenHereIsRefusedThere() throws {
        let dir = try encryptedDatabase(wal: true)
        let manager = dir.manager()
        try manager.open(password: "old-secret")

        let run = try FaultInjection.run("rekey", in: dir.url, kill: .never)
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("open in another program (process \(getpid()))"), "\(run.errorOutput)")
        #expect(FileSnapshot(dir.url).leftovers == [])
        #expect(dir.openResult(password: "new-secret") == "incorrectPasswordOrSettings")
        // The helper's 500 rows were committed before its rekey was refused; this manager sees them.
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM extra") == 500)
    }
}
