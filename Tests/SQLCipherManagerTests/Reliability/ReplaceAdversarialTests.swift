import Foundation
import Testing

@testable import SQLCipherManager

// MARK: - Attacks on the retire step

/// A replace killed (SIGKILL) at one of its steps (``FaultPause``: `journaled`, `retired`), then
/// another SQLCipher client — a raw connection keyed with the old password, as any program
/// would open the file — acts on the path BEFORE this library's recovery runs. What it wrote
/// and was told is committed must be in the database after the recovery; what it cannot write
/// it must be refused.
@Suite("Replace adversarial: another client between a kill -9 and the recovery", .serialized)
struct ReplaceAdversarialTests {
    /// `<dir>/ledger.db` ("old-secret") with rows 1...50, and a rekey killed at `step`.
    private func killedRekey(wal: Bool, at step: String) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: dir, encrypted: true, wal: wal)
        try dir.withOpened("ledger.db", password: "old-secret") { db in
            for id in 1...50 { try db.execute("INSERT INTO ledger(id, body) VALUES (?, 'kept')", id) }
        }
        let helper = try PausedHelper("rekey-ledger", in: dir, steps: [step])
        let paused = helper.waitForPause()
        helper.kill()
        #expect(paused, "the rekey never stopped at \(step): \(helper.errorOutput)")
        return dir
    }

    /// Another client's insert of row 777 with the old password; `true` when it committed.
    private func otherClientInserts(_ dir: TemporaryDirectory) -> Bool {
        guard let client = try? ReplaceScene.keyedConnection(dir.file("ledger.db"), password: "old-secret") else { return false }
        defer { client.close() }
        try? client.setBusyTimeout(milliseconds: 200)
        return (try? client.executeScript("INSERT INTO ledger(id, body) VALUES (777, 'other client')")) != nil
    }

    /// Killed after the journal says `retire` but before the old file is retired: the old file is
    /// still the database, and another client commits to it. No retired header, so recovery
    /// rolls back and the row stays. (WAL mode used to be retired by its `scm_replaced` entry
    /// alone, which recovery cannot tell from another client's commit without the key: it rolled
    /// forward and this row was lost. Now the header write is the retire in WAL mode too.)
    @Test("killed just after the journal's phase retire, another client commits before recovery", arguments: [false, true])
    func otherClientCommitsBeforeRetire(wal: Bool) throws {
        let dir = try killedRekey(wal: wal, at: "journaled")
        #expect(otherClientInserts(dir), "the old file is not retired yet: a client can write to it")
        let found = ReplaceScene.readBack(dir, encrypted: true)
        #expect(found.state == "old" && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...50).union([777]), "another client's committed row is lost: recovery left \(found.state)")
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    /// Killed once the old file is retired (WAL: also just after the `scm_replaced` commit, before
    /// its page 1 in the `-wal` carries the retired header): another client cannot commit to it
    /// (its header no longer decrypts; WAL: nor its page 1 in the `-wal`, or its schema holds
    /// `scm_replaced`), its close (WAL: a checkpoint) does not un-retire it, and recovery then
    /// installs the verified copy with every row.
    @Test(
        "killed once the old file is retired, another client is refused, recovery installs the copy",
        arguments: [(false, "retired"), (true, "retired"), (true, "tombstoned")])
    func otherClientRefusedOnRetiredFile(wal: Bool, step: String) throws {
        let dir = try killedRekey(wal: wal, at: step)
        #expect(!otherClientInserts(dir), "a client committed to the retired file: that row would be lost")
        // KNOWN ISSUE (the one write between the commit and the `-wal`'s retired header): the
        // client's close checkpoints the entry's real page 1 over the file's retired header;
        // recovery then finds no retired header, keeps the old file (which opens naming
        // `scm_replaced`; every row is still in it, behind the entry) and removes the copy.
        withKnownIssue(
            "WAL, killed between the scm_replaced commit and the -wal's retired header, then a client's close", isIntermittent: false
        ) {
            let found = ReplaceScene.readBack(dir, encrypted: true)
            #expect(found.state == "new" && found.problems == [], "\(found)")
            #expect(found.ids == Set(1...50))
        } when: {
            step == "tombstoned"
        }
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    /// A WAL journal written by the first version of the retire (no `header=` line: the schema
    /// entry alone retired the file): recovery still installs the verified copy.
    @Test("a WAL journal of phase retire without the header (older format): recovery installs the verified copy")
    func olderWALJournal() throws {
        let dir = try killedRekey(wal: true, at: "retired")
        let journal = dir.file("ledger.db.scm-journal")
        let text = try String(contentsOf: journal, encoding: .utf8)
        let older = text.split(separator: "\n").filter { !$0.hasPrefix("header=") }.joined(separator: "\n") + "\n"
        #expect(older != text)
        try Data(older.utf8).write(to: journal)
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file("ledger.db")) == .completed)
        let found = ReplaceScene.readBack(dir, encrypted: true)
        #expect(found.state == "new" && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...50))
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    @Test(
        "recovery run twice after a kill at each step: the second finds nothing, the database opens",
        arguments: [
            "journaled", "retired", "installed",
        ])
    func recoveryTwice(step: String) throws {
        let dir = try killedRekey(wal: false, at: step)
        let first = try DatabaseTools.recoverInterruptedOperation(at: dir.file("ledger.db"))
        #expect(first == (step == "journaled" ? .rolledBack : .completed))
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file("ledger.db")) == .nothingToRecover)
        let found = ReplaceScene.readBack(dir, encrypted: true)
        #expect(found.state == (step == "journaled" ? "old" : "new") && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...50))
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    /// The copy cut short (not the verified file) after the old one was retired: recovery
    /// writes back the old file's header (WAL: after taking the `scm_replaced` commit out of
    /// its `-wal`) instead of installing it.
    @Test("killed once the old file is retired, the copy then truncated: recovery un-retires the old file", arguments: [false, true])
    func truncatedCopyAfterRetire(wal: Bool) throws {
        let dir = try killedRekey(wal: wal, at: "retired")
        let copy = dir.file("ledger.db.scm-rekey").path
        try FileSystem.truncate(copy, to: 4096)
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file("ledger.db")) == .discardedUnprovenCopy)
        let found = ReplaceScene.readBack(dir, encrypted: true)
        #expect(found.state == "old" && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...50))
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    /// Encrypt in place (a plaintext file whose "SQLite format 3" header the marker replaces),
    /// killed once retired: stock SQLite refuses the file (not a database) and writes nothing,
    /// and recovery installs the encrypted copy.
    @Test("encrypt in place killed once the plaintext file is retired: stock SQLite refuses it, recovery installs the copy")
    func plaintextRetired() throws {
        let dir = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: dir, encrypted: false, wal: false)
        let plain = try Connection(path: dir.file("ledger.db").path, mode: .readWrite)
        try plain.executeScript("INSERT INTO ledger(id, body) VALUES (1, 'kept'), (2, 'kept')")
        plain.close()
        let helper = try PausedHelper("encrypt-ledger", in: dir, steps: ["retired"])
        let paused = helper.waitForPause()
        helper.kill()
        #expect(paused, "\(helper.errorOutput)")
        let stock = try Connection(path: dir.file("ledger.db").path, mode: .readWrite)
        #expect(throws: SQLiteError.self) { try stock.executeScript("INSERT INTO ledger(id, body) VALUES (3, 'lost?')") }
        stock.close()
        let found = ReplaceScene.readBack(dir, encrypted: false)
        #expect(found.state == "new" && found.problems == [], "\(found)")
        #expect(found.ids == [1, 2])
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    /// Through a symbolic link the real file is the one retired and replaced (its journal and
    /// copy sit beside it); the link stays a link.
    @Test("a rekey through a symbolic link killed once the real file is retired: recovery replaces the real file")
    func symlinkedPathRetired() throws {
        let dir = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: dir, encrypted: true, wal: false)
        try dir.withOpened("ledger.db", password: "old-secret") { db in
            for id in 1...20 { try db.execute("INSERT INTO ledger(id, body) VALUES (?, 'kept')", id) }
        }
        try FileManager.default.moveItem(at: dir.file("ledger.db"), to: dir.file("real.db"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("ledger.db").path, withDestinationPath: "real.db")
        let helper = try PausedHelper("rekey-ledger", in: dir, steps: ["retired"])
        let paused = helper.waitForPause()
        helper.kill()
        #expect(paused, "\(helper.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: dir.file("real.db.scm-journal").path))
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file("ledger.db")) == .completed)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("ledger.db").path) == "real.db")
        let found = ReplaceScene.readBack(dir, encrypted: true)
        #expect(found.state == "new" && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...20))
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    /// Encrypt in place of a plaintext file whose page size is not 4096 (the marker covers the
    /// page-size field at bytes 16–17 too), killed once retired or just before: recovery rolls
    /// forward or back, and the file opens with every row.
    @Test(
        "encrypt in place of a file with another page size, killed at journaled and retired",
        arguments: [1024, 65536], ["journaled", "retired"])
    func otherPageSize(pageSize: Int, step: String) throws {
        let dir = TemporaryDirectory()
        let plain = try Connection(path: dir.file("ledger.db").path, mode: .readWriteCreate)
        try plain.executeScript(
            "PRAGMA page_size = \(pageSize); PRAGMA journal_mode = DELETE; CREATE TABLE ledger(id INTEGER PRIMARY KEY, body TEXT)")
        for id in 1...30 { try plain.executeScript("INSERT INTO ledger(id, body) VALUES (\(id), hex(randomblob(300)))") }
        plain.close()
        let helper = try PausedHelper("encrypt-ledger", in: dir, steps: [step])
        let paused = helper.waitForPause()
        helper.kill()
        #expect(paused, "\(helper.errorOutput)")
        let found = ReplaceScene.readBack(dir, encrypted: false)
        #expect(found.state == (step == "retired" ? "new" : "old") && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...30))
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    /// A WAL source whose `-wal` still holds committed frames (page 1 among them: a table created
    /// and rows 1...50, never checkpointed) when the rekey retires it, killed at `journaled` or
    /// `retired`; then another client tries to commit and closes (a checkpoint of those frames).
    /// Before the retire its row is kept. Once retired it is refused; its close rebuilds the
    /// `-wal` index, which ends before the frame whose checksum the retired header broke, and
    /// checkpoints the earlier frames, page 1 among them, over the file's retired header: the
    /// file is the old database again (no entry, every row), and recovery keeps it.
    @Test(
        "a WAL source with un-checkpointed frames, killed at journaled and retired, another client acts",
        arguments: ["journaled", "retired"])
    func pendingWALFrames(step: String) throws {
        let dir = TemporaryDirectory()
        let scratch = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: scratch, encrypted: true, wal: true)
        let writer = try ReplaceScene.keyedConnection(scratch.file("ledger.db"), password: "old-secret")
        try writer.executeScript("PRAGMA wal_autocheckpoint = 0; CREATE TABLE extra(x)")
        for id in 1...50 { try writer.executeScript("INSERT INTO ledger(id, body) VALUES (\(id), hex(randomblob(200)))") }
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(at: scratch.file("ledger.db" + suffix), to: dir.file("ledger.db" + suffix))
        }
        writer.close()
        #expect((FileSystem.size(of: dir.file("ledger.db-wal").path) ?? 0) > 32)
        let helper = try PausedHelper("rekey-ledger", in: dir, steps: [step])
        let paused = helper.waitForPause()
        #expect((FileSystem.size(of: dir.file("ledger.db-wal").path) ?? 0) > 32, "the frames were checkpointed before the retire")
        helper.kill()
        #expect(paused, "\(helper.errorOutput)")
        #expect(otherClientInserts(dir) == (step == "journaled"))
        let found = ReplaceScene.readBack(dir, encrypted: true)
        #expect(found.state == "old" && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...50).union(step == "journaled" ? [777] : []))
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    /// The un-retire after a failed rename (``SourceWriteLock/unretire(header:)``), in WAL mode:
    /// the old file stays the database and another connection commits to it; then a crash loses
    /// the `-shm`. SQLite rebuilds its index from the `-wal` and stops at the first frame whose
    /// checksum fails: the frame the retired header was written over must have its bytes back,
    /// or every commit after it is dropped.
    @Test("WAL: commits after an un-retire survive a crash that loses the -shm (index rebuilt from the -wal)")
    func unretiredWALSurvivesIndexRebuild() throws {
        let dir = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: dir, encrypted: true, wal: true)
        let other = try ReplaceScene.keyedConnection(dir.file("ledger.db"), password: "old-secret")
        try other.executeScript("PRAGMA wal_autocheckpoint = 0; INSERT INTO ledger(id, body) VALUES (1, 'before')")
        let lock = try SourceWriteLock(connection: ReplaceScene.keyedConnection(dir.file("ledger.db"), password: "old-secret"))
        let header = try lock.originalHeader()
        try lock.markRetired()
        try lock.tombstoneReplacedFile()
        try lock.markRetiredInWAL()
        #expect(lock.unretire(header: header))
        lock.close()
        for id in 2...10 { try other.executeScript("INSERT INTO ledger(id, body) VALUES (\(id), 'after the un-retire')") }
        let crashed = TemporaryDirectory()
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(at: dir.file("ledger.db" + suffix), to: crashed.file("ledger.db" + suffix))
        }
        other.close()
        let found = ReplaceScene.readBack(crashed, encrypted: true)
        #expect(found.state == "old" && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...10))
    }
}
