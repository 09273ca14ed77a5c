import Foundation
import SeededRandom
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// A failed open changes nothing on disk, and a `-journal` or `-wal`
/// that does not belong to the database is refused instead of being written into it.
@Suite("Sidecars: failed opens change nothing, foreign -journal / -wal refused", .ownThread)
struct SidecarTests {
    /// Opens `test.db` in `dir` with `password`; returns the error case and what changed on disk.
    func failedOpen(_ dir: TemporaryDirectory, _ password: String) -> (outcome: String, changes: [String]) {
        let before = FileSnapshot(dir.url)
        let manager = dir.manager()
        let outcome = thrownCase { try manager.open(password: password) }
        manager.close()
        return (outcome, FileSnapshot(dir.url).differences(from: before))
    }

    func opensWithEveryRow(_ dir: TemporaryDirectory, walRows: Int = 0) throws -> Bool {
        let manager = dir.manager()
        try manager.open(password: "secret")
        defer { manager.close() }
        return try SidecarPairs.checkRows(manager, walRows: walRows)
    }

    // MARK: - Item 3: a wrong password changes nothing

    @Test("wrong password on a WAL database with frames: -wal and main file byte-identical, no -shm")
    func wrongPasswordOnWALPair() throws {
        let dir = TemporaryDirectory()
        try SidecarPairs.makeWALPair(in: dir)
        let result = failedOpen(dir, "wrong-password")
        #expect(result.outcome == "incorrectPasswordOrSettings")
        #expect(result.changes.isEmpty, "\(result.changes)")
        #expect(try opensWithEveryRow(dir, walRows: SidecarPairs.walRows))
    }

    @Test("wrong password with a hot journal: journal and main file byte-identical")
    func wrongPasswordOnHotJournal() throws {
        let dir = TemporaryDirectory()
        try SidecarPairs.makeHotJournalPair(in: dir)
        let result = failedOpen(dir, "wrong-password")
        #expect(result.outcome == "incorrectPasswordOrSettings")
        #expect(result.changes.isEmpty, "\(result.changes)")
        #expect(try opensWithEveryRow(dir))
    }

    @Test("wrong password, no sidecar, rollback and WAL mode: no -shm, -wal or -journal appears")
    func wrongPasswordWithoutSidecar() throws {
        for wal in [false, true] {
            let dir = TemporaryDirectory()
            try SidecarPairs.makeDatabase(in: dir)
            if wal {
                let manager = dir.manager()
                try manager.open(password: "secret")
                _ = try manager.scalar(String.self, "PRAGMA journal_mode = WAL")
                manager.close()
            }
            let result = failedOpen(dir, "wrong-password")
            #expect(result.outcome == "incorrectPasswordOrSettings")
            #expect(result.changes.isEmpty, "WAL \(wal): \(result.changes)")
        }
    }

    @Test(
        "garbage -wal / -journal: a wrong password changes nothing, the right one opens every row",
        arguments: ["-wal", "-journal"], [20, 4096, 70_000])
    func garbageSidecar(suffix: String, size: Int) throws {
        let dir = TemporaryDirectory()
        try SidecarPairs.makeDatabase(in: dir)
        var generator = SeededGenerator(seed: UInt64(size))
        let garbage = Data((0..<size).map { _ in UInt8.random(in: 1...255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: dir.file().path + suffix))
        let result = failedOpen(dir, "wrong-password")
        #expect(result.outcome == "incorrectPasswordOrSettings")
        #expect(result.changes.isEmpty, "\(result.changes)")
        #expect(try opensWithEveryRow(dir))
    }

    // MARK: - Item 4: a foreign sidecar is refused

    enum Foreign: String, CaseIterable {
        case journalOtherKey = "-journal of another database and key"
        case walOtherKey = "-wal of another database and key"
        case walSamePassword = "-wal of another database with the same password"
    }

    @Test(
        "a foreign sidecar with the right password: typed error, nothing changed, opens once moved",
        arguments: Foreign.allCases)
    func foreignSidecar(_ foreign: Foreign) throws {
        let dir = TemporaryDirectory()
        let other = TemporaryDirectory()
        let database = try SidecarPairs.makeDatabase(in: dir)
        let suffix = foreign == .journalOtherKey ? "-journal" : "-wal"
        switch foreign {
        case .journalOtherKey: try SidecarPairs.makeHotJournalPair(in: other, password: "other-secret")
        case .walOtherKey: try SidecarPairs.makeWALPair(in: other, password: "other-secret")
        case .walSamePassword: try SidecarPairs.makeWALPair(in: other, password: "secret")
        }
        try FileManager.default.copyItem(atPath: other.file().path + suffix, toPath: database.path + suffix)
        let before = FileSnapshot(dir.url)
        let manager = dir.manager()
        let error = thrownError { try manager.open(password: "secret") }
        #expect(FileSnapshot(dir.url).differences(from: before).isEmpty)
        guard case .foreignSidecar(let path, let sidecar)? = (error as? DatabaseManagerError)?.kind else {
            Issue.record("expected foreignSidecar, got \(String(describing: error))")
            return
        }
        #expect(path == database.path && sidecar == database.path + suffix)
        #expect("\(error!)".contains("Move \(sidecar) away"))
        #expect(failedOpen(dir, "wrong-password") == ("incorrectPasswordOrSettings", []))
        try SidecarPairs.moveAway(database, suffix: suffix)
        #expect(try opensWithEveryRow(dir))
    }

    // MARK: - Legitimate sidecars still work

    @Test("a hot journal and a -wal of this database (copied mid-transaction) are replayed with every row")
    func ownSidecarsReplay() throws {
        let journalDir = TemporaryDirectory()
        try SidecarPairs.makeHotJournalPair(in: journalDir)
        #expect(try opensWithEveryRow(journalDir))
        #expect(!FileManager.default.fileExists(atPath: journalDir.file().path + "-journal"))
        let walDir = TemporaryDirectory()
        try SidecarPairs.makeWALPair(in: walDir)
        #expect(try opensWithEveryRow(walDir, walRows: SidecarPairs.walRows))
    }

    @Test("a -wal in use by another manager of this process: seen as in use (no copy), opens, wrong password changes nothing")
    func liveWALInThisProcess() throws {
        let dir = TemporaryDirectory()
        try SidecarPairs.makeDatabase(in: dir)
        let owner = dir.manager()
        try owner.open(password: "secret")
        defer { owner.close() }
        _ = try owner.scalar(String.self, "PRAGMA journal_mode = WAL")
        try owner.execute("PRAGMA wal_autocheckpoint = 0")
        try owner.execute("INSERT INTO item(name) VALUES ('WAL-0')")
        let path = dir.file().path
        let probe = try Connection(path: path, mode: .readWrite)
        #expect(try SidecarCheck.state(probe, journal: path + "-journal", wal: path + "-wal") == .inUse)
        probe.unlockMainFile()
        probe.close()
        let files = { [path, path + "-wal"].map { Fixture.bytes(URL(fileURLWithPath: $0)) } }
        let before = files()
        let stranger = dir.manager()
        #expect(thrownCase { try stranger.open(password: "wrong-password") } == "incorrectPasswordOrSettings")
        #expect(files() == before)
        let sibling = dir.manager()
        try sibling.open(password: "secret")
        #expect(try SidecarPairs.checkRows(sibling, walRows: 1))
        sibling.close()
    }
}
