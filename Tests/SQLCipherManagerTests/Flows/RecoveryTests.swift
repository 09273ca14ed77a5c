import Foundation
import Testing

@testable import SQLCipherManager

/// Crash states built by hand, one per moment of an export-based operation; the fault-injection
/// suite reaches them with real kills.
@Suite("Recovery of interrupted operations")
struct RecoveryTests {
    /// A journal as the engine writes it: in phase `install`, with the fingerprint of the copy
    /// found in the folder (the digest recorded once the copy was verified).
    private func journal(
        _ phase: OperationJournal.Phase, _ install: OperationJournal.Install = .replace,
        operation: ExportOperation.Kind = .rekey, target: URL
    ) throws {
        let name = ExportOperation.temporaryName(for: target.path, operation: operation)
        var journal = OperationJournal(operation: operation, install: install, phase: phase, temporaryName: name)
        if phase == .install { journal.copyDigest = try? FileSystem.fingerprint(of: journal.temporaryPath(for: target.path)) }
        try journal.write(for: target.path)
    }

    /// A database ("old-secret"), its verified rekey copy ("new-secret") and an install-phase
    /// journal stamped with the database as it is now.
    private func verifiedRekeyCopyWithStampedJournal() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try RichDatabase.makeEncrypted(in: dir, name: "test.db.scm-rekey", password: "new-secret")
        let name = ExportOperation.temporaryName(for: dir.file().path, operation: .rekey)
        var journal = OperationJournal(
            operation: .rekey, install: .replace, phase: .install, temporaryName: name,
            targetStamp: FileSystem.stamp(of: dir.file().path))
        journal.copyDigest = try FileSystem.fingerprint(of: dir.file("test.db.scm-rekey").path)
        try journal.write(for: dir.file().path)
        return dir
    }

    @Test(
        "a copy that is not the verified one (junk, or no digest recorded) is never installed, whatever the password",
        arguments: [true, false])
    func unprovenCopyIsDiscarded(recordsDigest: Bool) throws {
        let dir = try verifiedRekeyCopyWithStampedJournal()
        if !recordsDigest {
            var journal = try #require(try OperationJournal.read(for: dir.file().path))
            journal.copyDigest = nil
            try journal.write(for: dir.file().path)
        } else {
            try Data(repeating: 0x5A, count: 4096).write(to: dir.file("test.db.scm-rekey"))
        }
        let original = Fixture.bytes(dir.file())

        #expect(dir.openResult(password: "wrong-password") == "incorrectPasswordOrSettings")
        #expect(Fixture.bytes(dir.file()) == original)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(dir.openResult(password: "old-secret") == "none")
    }

    @Test("recovery reports a discarded copy")
    func discardedCopyIsReported() throws {
        let dir = try verifiedRekeyCopyWithStampedJournal()
        try Data(repeating: 0x5A, count: 4096).write(to: dir.file("test.db.scm-rekey"))
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .discardedUnprovenCopy)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
    }

    @Test("killed while exporting: the partial copy is removed and the old password opens the file")
    func exportPhaseRollsBack() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let original = Fixture.bytes(dir.file())
        try journal(.export, target: dir.file())
        try Data(repeating: 7, count: 3000).write(to: dir.file("test.db.scm-rekey"))
        try Data(repeating: 1, count: 512).write(to: dir.file("test.db.scm-rekey-journal"))

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .rolledBack)
        #expect(Fixture.bytes(dir.file()) == original)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(dir.openResult(password: "old-secret") == "none")
    }

    @Test("killed after the copy was verified: the next open installs it and opens with the new password")
    func installPhaseCompletesOnOpen() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try RichDatabase.makeEncrypted(in: dir, name: "test.db.scm-rekey", password: "new-secret", rows: 250)
        try journal(.install, target: dir.file())
        try Data().write(to: dir.file("test.db-wal"))

        #expect(dir.openResult(password: "old-secret") == "incorrectPasswordOrSettings")
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(try dir.withOpened(password: "new-secret") { try RichDatabase.verify($0, rows: 250) } == [])
    }

    @Test("killed after the rename: recovery only removes the journal")
    func installPhaseAfterRename() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, password: "new-secret")
        let installed = Fixture.bytes(dir.file())
        try journal(.install, target: dir.file())

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .completed)
        #expect(Fixture.bytes(dir.file()) == installed)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .nothingToRecover)
    }

    @Test("a -wal holding data beside the target (someone wrote since): the copy is dropped, the file kept")
    func liveWALRollsBack() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try RichDatabase.makeEncrypted(in: dir, name: "test.db.scm-rekey", password: "new-secret")
        let original = Fixture.bytes(dir.file())
        try journal(.install, target: dir.file())
        try Data(repeating: 9, count: 4096).write(to: dir.file("test.db-wal"))

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .rolledBack)
        #expect(Fixture.bytes(dir.file()) == original)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db", "test.db-wal"])
    }

    @Test("the database was written to after the copy was verified (by a program that skipped recovery): the copy is dropped")
    func modifiedTargetRollsBack() throws {
        let dir = try verifiedRekeyCopyWithStampedJournal()
        let writer = try Connection(path: dir.file().path, mode: .readWrite)
        try Array("old-secret".utf8).withUnsafeBytes { try writer.key($0) }
        try writer.executeScript(
            """
            PRAGMA kdf_iter = 4000;
            INSERT INTO tag(name, weight) VALUES ('late', 1);
            INSERT INTO audit(event) SELECT hex(randomblob(200)) FROM book;
            """)
        writer.close()

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .rolledBack)
        #expect(try dir.withOpened(password: "old-secret") { try $0.scalar(Int.self, "SELECT count(*) FROM tag") } == 21)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
    }

    @Test("an unmodified database with a stamped install journal gets the copy")
    func stampedInstallCompletes() throws {
        let dir = try verifiedRekeyCopyWithStampedJournal()

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .completed)
        #expect(dir.openResult(password: "new-secret") == "none")
    }

    @Test("a copy to a new path killed after verification: recovery links it into place")
    func createInstallPhase() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, name: "out.db.scm-encrypt", password: "new-secret")
        try journal(.install, .create, operation: .encrypt, target: dir.file("out.db"))

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file("out.db")) == .completed)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["out.db"])
        #expect(dir.openResult("out.db", password: "new-secret") == "none")
    }

    @Test("an operation whose lock is held (still running) is left alone; once released it is rolled back")
    func runningOperationIsLeftAlone() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try journal(.export, target: dir.file())
        try Data(repeating: 7, count: 3000).write(to: dir.file("test.db.scm-rekey"))
        var lock = try OperationLock.acquire(for: dir.file().path)
        #expect(lock != nil)
        let snapshot = FileSnapshot(dir.url)

        #expect(thrownCase { try DatabaseTools.recoverInterruptedOperation(at: dir.file()) } == "operationInProgress")
        #expect(dir.openResult(password: "old-secret") == "operationInProgress")
        #expect(FileSnapshot(dir.url) == snapshot)
        lock = nil
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .rolledBack)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
    }

    @Test("a journal this code did not write: recoveryFailed, open refuses, nothing is removed")
    func foreignJournal() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try Data("hello".utf8).write(to: dir.file("test.db.scm-journal"))
        let snapshot = FileSnapshot(dir.url)

        #expect(thrownCase { try DatabaseTools.recoverInterruptedOperation(at: dir.file()) } == "recoveryFailed")
        #expect(dir.openResult(password: "old-secret") == "recoveryFailed")
        #expect(FileSnapshot(dir.url) == snapshot)
    }

    @Test("a journal naming another file as its copy: recoveryFailed, that file is not touched")
    func journalNamingAnotherFile() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try Data("precious".utf8).write(to: dir.file("other.db"))
        try OperationJournal(operation: .rekey, install: .replace, phase: .export, temporaryName: "other.db")
            .write(for: dir.file().path)
        let snapshot = FileSnapshot(dir.url)

        #expect(thrownCase { try DatabaseTools.recoverInterruptedOperation(at: dir.file()) } == "recoveryFailed")
        #expect(FileSnapshot(dir.url) == snapshot)
    }

    @Test("killed while writing the first journal: the half-written journal is removed")
    func halfWrittenJournal() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try Data("sqlciphermanager-jour".utf8).write(to: dir.file("test.db.scm-journal.tmp"))

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .nothingToRecover)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
    }

    @Test("the journal round-trips and rejects paths in its temporary name")
    func journalEncoding() {
        let journal = OperationJournal(operation: .decrypt, install: .create, phase: .install, temporaryName: "a.db.scm-decrypt")
        #expect(OperationJournal(decoding: journal.encoded) == journal)
        let escaping = journal.encoded.replacingOccurrences(of: "a.db.scm-decrypt", with: "../a.db")
        #expect(OperationJournal(decoding: escaping) == nil)
        var retiring = OperationJournal(operation: .rekey, install: .replace, phase: .retire, temporaryName: "a.db.scm-rekey")
        retiring.retiredHeader = [0x00, 0x7f, 0x80, 0xff] + SourceWriteLock.retiredHeader
        retiring.walMark = "4152:377f0682"
        #expect(OperationJournal(decoding: retiring.encoded) == retiring)
        #expect(OperationJournal(decoding: retiring.encoded.replacingOccurrences(of: "header=00", with: "header=0g")) == nil)
    }
}

@Suite("Opening after a crash in WAL mode")
struct WALCrashOpenTests {
    @Test("a WAL database whose new pages are still only in the -wal opens whole (it is not 'truncated')")
    func uncheckpointedGrowthOpens() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, name: "live.db", rows: 10, wal: true)
        let writer = dir.manager("live.db")
        try writer.open(password: "old-secret")
        try writer.executeScript("PRAGMA wal_autocheckpoint = 0")
        try writer.transaction { db in
            for index in 0..<3000 { try db.execute("INSERT INTO tag(name, weight) VALUES (?, 1)", "grown-\(index)") }
        }
        // The state a kill -9 leaves: the main file without the new pages, the -wal with them.
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: dir.file("live.db").path + suffix, toPath: dir.file().path + suffix)
        }
        writer.close()
        #expect((FileSystem.size(of: dir.file().path) ?? 0) < (FileSystem.size(of: dir.file().path + "-wal") ?? 0))

        #expect(try dir.withOpened(password: "old-secret") { try $0.scalar(Int.self, "SELECT count(*) FROM tag") } == 3020)
    }
}
