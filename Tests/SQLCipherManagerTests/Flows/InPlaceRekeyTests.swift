import Foundation
import SeededRandom
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// A key change with the cipher settings unchanged re-keys the file in place, in one SQLite
/// write transaction (`sqlite3_rekey`): the same file, SQLite's journal or WAL as the crash
/// safety, and a marker beside the file while it runs. Replay the kill runs with the
/// `SCM_TEST_SEED` they print; a quick run (``TestDepth``) kills fewer times.
@Suite("Rekey in place", .serialized, .ownThread)
struct InPlaceRekeyTests {
    @Test("a key-only rekey keeps the file (same inode), leaves nothing beside it and restores synchronous", arguments: [false, true])
    func sameFileNoLeftovers(wal: Bool) throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, wal: wal)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        try manager.execute("PRAGMA synchronous = NORMAL")
        let inode = FileSystem.identity(of: dir.file().path)

        try manager.rekey(to: .password("new-secret"))
        #expect(FileSystem.identity(of: dir.file().path) == inode)
        // The writer's own setting (a query convenience would read a reader connection's on WAL).
        #expect(try manager.withDatabase { try $0.scalar(Int.self, "PRAGMA synchronous") } == 1)
        #expect(try manager.scalar(String.self, "PRAGMA journal_mode") == (wal ? "wal" : "delete"))
        #expect(FileSnapshot(dir.url).leftovers == [])
        #expect(try manager.withDatabase { try RichDatabase.verify($0, rows: 200) } == [])
        try manager.execute("INSERT INTO tag(name, weight) VALUES ('after', 1)")
        manager.close()
        #expect(dir.openResult(password: "old-secret") == "incorrectPasswordOrSettings")
        #expect(try dir.withOpened(password: "new-secret") { try $0.scalar(String.self, "PRAGMA integrity_check") } == "ok")
    }

    @Test("pool readers read on through a rekey (WAL): no read fails, later reads use the new key")
    func poolReadersMoveToTheNewKey() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, wal: true)
        let manager = dir.manager { $0.journalMode = .wal }
        try manager.open(password: "old-secret")
        let failures = ReadCounter()
        let reads = ReadCounter()
        let stop = ReadCounter()
        let group = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                while stop.value == 0 {
                    do {
                        let count = try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM book") }
                        if count == 200 { reads.add() } else { failures.add() }
                    } catch {
                        failures.add()
                    }
                }
            }
        }
        while reads.value < 20 { usleep(1000) }
        for password in ["new-secret", "third-secret", "new-secret"] { try manager.rekey(to: .password(password)) }
        let before = reads.value
        while reads.value < before + 20 { usleep(1000) }
        stop.add()
        group.wait()
        #expect(failures.value == 0)
        manager.close()
        #expect(dir.openResult(password: "new-secret") == "none")
    }

    @Test("another connection holds a write transaction past the busy timeout: busy, nothing changed", arguments: [false, true])
    func anotherWriterKeepsTheLock(wal: Bool) throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, wal: wal)
        // A plain connection (not a manager: nothing pauses it) in the middle of a write.
        let other = try Connection(path: dir.file().path, mode: .readWrite)
        defer { other.close() }
        try Array("old-secret".utf8).withUnsafeBytes { try other.key($0) }
        try other.executeScript("PRAGMA kdf_iter = 4000; BEGIN IMMEDIATE; INSERT INTO tag(name, weight) VALUES ('held', 1)")
        let manager = dir.manager { $0.busyTimeout = .milliseconds(300) }
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        try manager.open(password: "old-secret")
        let snapshot = FileSnapshot(dir.url)

        #expect(thrownCase { try manager.rekey(to: .password("new-secret")) } == "busy")
        #expect(delegate.events == [.didOpen, .willRekey, .didFailToRekey("busy")])
        #expect(FileSnapshot(dir.url) == snapshot)
        // Both connections go on with the old key.
        try other.executeScript("COMMIT")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 21)
        manager.close()
        #expect(dir.openResult(password: "old-secret") == "none")
    }

    @Test("rollback journal: a reader keeps its read transaction past the busy timeout: busy, the old key stays")
    func aReaderKeepsTheCommitOut() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 2000)
        let reader = try Connection(path: dir.file().path, mode: .readWrite)
        defer { reader.close() }
        try Array("old-secret".utf8).withUnsafeBytes { try reader.key($0) }
        try reader.executeScript("PRAGMA kdf_iter = 4000; BEGIN; SELECT count(*) FROM book")
        let manager = dir.manager { $0.busyTimeout = .milliseconds(300) }
        try manager.open(password: "old-secret")

        // sqlite3_rekey's own commit waits for the reader's SHARED lock, fails, and says nothing.
        #expect(thrownCase { try manager.rekey(to: .password("new-secret")) } == "busy")
        try reader.executeScript("COMMIT")
        // Reopened with the old key (the connection that tried the rekey was closed): it writes on.
        #expect(manager.isOpen)
        #expect(try manager.withDatabase { try RichDatabase.verify($0, rows: 2000) } == [])
        try manager.execute("INSERT INTO tag(name, weight) VALUES ('after', 1)")
        #expect(try manager.scalar(String.self, "PRAGMA integrity_check") == "ok")
        manager.close()
        #expect(FileSnapshot(dir.url).leftovers == [])
        #expect(dir.openResult(password: "new-secret") == "incorrectPasswordOrSettings")
        try manager.open(password: "old-secret")
        try manager.rekey(to: .password("new-secret"))
        manager.close()
        #expect(dir.openResult(password: "new-secret") == "none")
    }

    // MARK: - Interrupted

    @Test("killed with the marker written, the transaction not begun: the new password is told to use the old one")
    func killedBeforeTheTransaction() throws {
        let dir = try ledgerDatabase()
        let helper = try PausedHelper("rekey-ledger-in-place", in: dir, steps: ["rekey-marked"])
        #expect(helper.waitForPause(), "the rekey never stopped: \(helper.errorOutput)")
        // Still running: the open says so instead of "wrong password".
        #expect(dir.openResult("ledger.db", password: "new-secret") == "operationInProgress")
        helper.kill()

        let manager = dir.manager("ledger.db")
        let error = thrownError { try manager.open(password: "new-secret") }
        guard case .keyChangeInterrupted(_, let side)? = error as? DatabaseManagerError else {
            Issue.record("expected keyChangeInterrupted, got \(String(describing: error))")
            return
        }
        #expect(side == .previousKey)
        #expect("\(error!)".contains("opens with the password it had before"))
        try manager.open(password: "old-secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM ledger") == 50)
        manager.close()
        #expect(FileSnapshot(dir.url).leftovers == [])
        #expect(dir.openResult("ledger.db", password: "new-secret") == "incorrectPasswordOrSettings")
    }

    @Test("killed after the commit, the marker not yet removed: the old password is told to use the new one")
    func killedAfterTheCommit() throws {
        let dir = try ledgerDatabase()
        let helper = try PausedHelper("rekey-ledger-in-place", in: dir, steps: ["rekey-committed"])
        #expect(helper.waitForPause(), "the rekey never stopped: \(helper.errorOutput)")
        helper.kill()

        let manager = dir.manager("ledger.db")
        let error = thrownError { try manager.open(password: "old-secret") }
        guard case .keyChangeInterrupted(_, let side)? = error as? DatabaseManagerError else {
            Issue.record("expected keyChangeInterrupted, got \(String(describing: error))")
            return
        }
        #expect(side == .newKey)
        try manager.open(password: "new-secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM ledger") == 50)
        manager.close()
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    @Test("kill -9 at random moments of in-place rekeys of a 20,000-row file: exactly one key opens every row", arguments: [false, true])
    func killAtRandomMoments(wal: Bool) throws {
        var random = SeededGenerator(seed: FaultInjection.seed ^ (wal ? 0x5EED : 0xD00D))
        let target = TestDepth.count(full: 12, quick: 3)
        TestDepth.announce("in-place rekey kills wal=\(wal)", "\(target) kills")
        let calibration = try killedRekey(wal: wal, delay: nil)
        #expect(calibration.state == "new", "\(calibration)")
        var span = max(calibration.duration, 0.01)
        var states: [String: Int] = [:]
        var kills = 0
        for run in 0..<(target * 10 / 3) where kills < target {
            let delay = Double.random(in: 0...(span * 1.1), using: &random)
            let result = try killedRekey(wal: wal, delay: delay)
            // A run that finished first was faster than the calibration (the load changed):
            // aim within it, so that most runs are killed.
            if result.killed { kills += 1 } else { span = min(span, max(result.duration, 0.01)) }
            states[result.state, default: 0] += 1
            #expect(result.state != "broken", "\(TestDepth.replay), run \(run), delay \(delay)s: \(result.problems)")
        }
        #expect(kills >= target)
        print(
            "in-place rekey kills wal=\(wal): \(kills) kills, states \(states.sorted { $0.key < $1.key }), rekey ≈ \(Int(span * 1000)) ms")
    }

    // MARK: - Helpers

    /// `<dir>/ledger.db` ("old-secret", rollback journal) with rows 1...50.
    private func ledgerDatabase() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        let manager = dir.manager("ledger.db")
        try manager.create(password: "old-secret")
        try manager.execute("CREATE TABLE ledger(id INTEGER PRIMARY KEY, body TEXT)")
        for id in 1...50 { try manager.execute("INSERT INTO ledger(id, body) VALUES (?, ?)", id, "row \(id)") }
        manager.close()
        return dir
    }

    /// Runs the helper's in-place rekey on a copy of the 20,000-row template (killed after
    /// `delay` seconds, or not), then opens with the new password first (so that a refused
    /// open meets any hot journal first), then the old one.
    private func killedRekey(wal: Bool, delay: TimeInterval?) throws -> (
        killed: Bool, duration: TimeInterval, state: String, problems: [String]
    ) {
        let dir = TemporaryDirectory()
        try FaultInjection.install("encrypted.db", in: dir)
        if !wal { try dir.withOpened(password: "old-secret") { try $0.execute("PRAGMA journal_mode = DELETE") } }
        let run = try FaultInjection.run("rekey", in: dir.url, kill: delay.map { .after($0) } ?? .never)
        let newManager = dir.manager()
        let newError = thrownError { try newManager.open(password: "new-secret") }
        newManager.close()
        let oldManager = dir.manager()
        let oldError = thrownError { try oldManager.open(password: "old-secret") }
        oldManager.close()
        let opened = [("new-secret", newError), ("old-secret", oldError)].filter { $0.1 == nil }.map(\.0)
        guard opened.count == 1, let password = opened.first else {
            return (run.killed, run.duration, "broken", ["new: \(String(describing: newError)), old: \(String(describing: oldError))"])
        }
        var problems: [String] = []
        // The other password is refused as wrong (never as a foreign sidecar or a damaged file).
        let refused = newError ?? oldError
        let refusal = thrownCase { if let refused { throw refused } }
        if !["incorrectPasswordOrSettings", "keyChangeInterrupted"].contains(refusal) { problems.append("refused as \(refusal)") }
        // A refusal beside an interrupted change's marker must name the key that opened.
        if case .keyChangeInterrupted(_, let side?)? = (newError ?? oldError) as? DatabaseManagerError {
            if side != (password == "new-secret" ? .newKey : .previousKey) { problems.append("the refusal named the wrong key: \(side)") }
        }
        problems += try dir.withOpened(password: password) { db in
            var found = try RichDatabase.verify(db, rows: FaultInjection.rows)
            if try db.scalar(String.self, "PRAGMA integrity_check") != "ok" { found.append("integrity_check failed") }
            if try db.scalar(Int.self, "SELECT count(*) FROM extra") != FaultInjection.extraRows { found.append("extra rows lost") }
            return found
        }
        let leftovers = FileSnapshot(dir.url).leftovers
        if !leftovers.isEmpty { problems.append("left behind: \(leftovers)") }
        return (run.killed, run.duration, problems.isEmpty ? (password == "new-secret" ? "new" : "old") : "broken", problems)
    }
}

/// A thread-safe count.
private final class ReadCounter: @unchecked Sendable {
    // @unchecked: `count` is read and written only under `lock`.
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
