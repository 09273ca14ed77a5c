import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Crash states built by hand, one per moment of an export-based operation; the fault-injection
/// suite reaches them with real kills.
@Suite("Recovery of interrupted operations", .ownThread)
struct RecoveryTests {
    /// A journal as the engine writes it: in phase `install`, with the fingerprint of the copy
    /// found in the directory (the digest recorded once the copy was verified).
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

    @Test("killed after the copy was verified, before the rename: the original stays, the copy goes")
    func installPhaseBeforeRenameRollsBack() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try RichDatabase.makeEncrypted(in: dir, name: "test.db.scm-rekey", password: "new-secret", rows: 250)
        let original = Fixture.bytes(dir.file())
        try journal(.install, target: dir.file())

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .rolledBack)
        #expect(Fixture.bytes(dir.file()) == original)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(dir.openResult(password: "old-secret") == "none")
    }

    /// The old code reported `completed` ("the new password opens it") whenever the copy was
    /// gone, though the original was still at the path and only the old password opened it.
    @Test("the copy is gone and the original is at the path: rolled back, never 'completed'")
    func missingCopyWithOriginalAtPathIsRolledBack() throws {
        let dir = try verifiedRekeyCopyWithStampedJournal()
        try FileManager.default.removeItem(at: dir.file("test.db.scm-rekey"))

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .rolledBack)
        #expect(dir.openResult(password: "old-secret") == "none")
        #expect(dir.openResult(password: "new-secret") == "incorrectPasswordOrSettings")
    }

    @Test("killed after the rename (the copy at the path, the original under its second name): completed")
    func installPhaseAfterRename() throws {
        let dir = try verifiedRekeyCopyWithStampedJournal()
        try FileManager.default.linkItem(at: dir.file(), to: dir.file("test.db.scm-previous"))
        try FileSystem.rename(dir.file("test.db.scm-rekey").path, to: dir.file().path)
        let installed = Fixture.bytes(dir.file())

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .completed)
        #expect(Fixture.bytes(dir.file()) == installed)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(dir.openResult(password: "new-secret") == "none")
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .nothingToRecover)
    }

    /// A file system (or a restore) that does not keep inode numbers: the copy at the path is
    /// still recognised by its size and the digest of its first and last pages (its salt).
    @Test("the copy at the path under another inode, the original as a separate file: completed, the second name goes")
    func copyRecognisedByContent() throws {
        let dir = try verifiedRekeyCopyWithStampedJournal()
        try FileManager.default.copyItem(at: dir.file(), to: dir.file("test.db.scm-previous"))
        try FileManager.default.removeItem(at: dir.file())
        try FileManager.default.copyItem(at: dir.file("test.db.scm-rekey"), to: dir.file())
        try FileManager.default.removeItem(at: dir.file("test.db.scm-rekey"))
        let stamp = FileSystem.stamp(of: dir.file("test.db.scm-previous").path)
        var journal = try #require(try OperationJournal.read(for: dir.file().path))
        journal.targetStamp = stamp
        try journal.write(for: dir.file().path)

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .completed)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(dir.openResult(password: "new-secret") == "none")
    }

    @Test("killed after the rename while another process has the original open: the original is put back")
    func originalOpenElsewhereIsPutBack() throws {
        let dir = try verifiedRekeyCopyWithStampedJournal()
        let original = Fixture.bytes(dir.file())
        try FileManager.default.linkItem(at: dir.file(), to: dir.file("test.db.scm-previous"))
        let holder = try FileHolder(dir.file("test.db.scm-previous"))
        defer { holder.stop() }
        try FileSystem.rename(dir.file("test.db.scm-rekey").path, to: dir.file().path)

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .rolledBack)
        #expect(Fixture.bytes(dir.file()) == original)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["test.db"])
        #expect(dir.openResult(password: "old-secret") == "none")
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

    @Test("a copy to a new path killed after verification: recovery links it into place")
    func createInstallPhase() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, name: "out.db.scm-encrypt", password: "new-secret")
        try journal(.install, .create, operation: .encrypt, target: dir.file("out.db"))

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file("out.db")) == .completed)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["out.db"])
        #expect(dir.openResult("out.db", password: "new-secret") == "none")
    }

    /// The old code compared the copy's whole fingerprint, whose status-change time the link
    /// itself changes, and reported "rolled back … removed" while out.db was complete.
    @Test("a copy to a new path killed after the link: completed, out.db is the verified copy")
    func createAfterLinkIsCompleted() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, name: "out.db.scm-decrypt", password: "new-secret")
        try journal(.install, .create, operation: .decrypt, target: dir.file("out.db"))
        try FileManager.default.linkItem(at: dir.file("out.db.scm-decrypt"), to: dir.file("out.db"))
        let linked = Fixture.bytes(dir.file("out.db"))

        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file("out.db")) == .completed)
        #expect(Fixture.bytes(dir.file("out.db")) == linked)
        #expect(FileSnapshot(dir.url).files.keys.sorted() == ["out.db"])
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
        var installing = OperationJournal(operation: .rekey, install: .replace, phase: .install, temporaryName: "a.db.scm-rekey")
        installing.targetStamp = "2049:12:8192:1.5"
        installing.copyDigest = "2049:13:8192:1.5:1.6:00ff"
        #expect(OperationJournal(decoding: installing.encoded) == installing)
        #expect(OperationJournal(decoding: installing.encoded.replacingOccurrences(of: "phase=install", with: "phase=retire")) == nil)
    }
}

@Suite("Opening after a crash in WAL mode", .ownThread)
struct WALCrashOpenTests {
    @Test("a WAL database whose new pages are still only in the -wal opens whole (it is not 'truncated')")
    func uncheckpointedGrowthOpens() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, name: "live.db", rows: 10, wal: true)
        let writer = dir.manager("live.db")
        try writer.open(password: "old-secret")
        try writer.executeScript("PRAGMA wal_autocheckpoint = 0")
        try writer.transactionSync { db in
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

/// Another process (`sh`) that holds a file open, as a program between its transactions does.
final class FileHolder {
    private let process = ChildProcess()

    init(_ url: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec 3<\"$0\"; echo open; exec sleep 60", url.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        _ = output.fileHandleForReading.availableData
        // `sleep` keeps descriptor 3 once `exec` has replaced the shell.
        usleep(100_000)
    }

    var processID: Int { Int(process.processIdentifier) }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
