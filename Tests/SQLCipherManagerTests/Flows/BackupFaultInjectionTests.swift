import Foundation
import SeededRandom
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Kills `FaultInjectionHelper backup` (a backup of the 20,000-row template to `out.db`, in WAL
/// mode and in rollback-journal mode)
/// with SIGKILL at seeded random moments, a few times while the temporary copy grows, and a few
/// times right after the journal reaches its install phase. Each time, before anything else touches the files, `out.db` is absent or a
/// complete verified backup; then the next backup to the same name recovers what the killed
/// one left (removes it, or completes a verified copy) and no leftover remains. Replay a run with
/// the `SCM_TEST_SEED` printed; a quick run (``TestDepth``) kills fewer times.
@Suite("Fault injection: kill -9 during a backup", .serialized, .ownThread)
struct BackupFaultInjectionTests {
    static let randomKills = TestDepth.count(full: 10, quick: 3)
    static let installKills = TestDepth.count(full: 3, quick: 1)
    /// Kills while the temporary copy grows (`sqlcipher_export` running).
    static let copyKills = TestDepth.count(full: 3, quick: 1)

    enum Found: String {
        case absent
        case complete
        case broken
    }

    @Test("a killed backup leaves no half file under the final name", arguments: [true, false])
    func killedBackup(wal: Bool) throws {
        let seed = FaultInjection.seed
        TestDepth.announce("backup kills, wal \(wal)", "\(Self.randomKills) + \(Self.copyKills) + \(Self.installKills) kills")
        var random = SeededGenerator(seed: seed)
        let attempt = { (kill: (TemporaryDirectory) -> FaultInjection.Kill, context: String) in
            try self.attempt(kill, wal: wal, context: "wal \(wal), " + context)
        }
        let full = try attempt({ _ in .never }, "SCM_TEST_SEED=\(seed), unkilled")
        #expect(full.found == .complete)
        var tally: [Found: Int] = [:]
        for index in 0..<Self.randomKills {
            let delay = Double.random(in: 0...max(full.duration, 0.01), using: &random)
            let result = try attempt({ _ in .after(delay) }, "SCM_TEST_SEED=\(seed), kill \(index) after \(delay)s")
            tally[result.found, default: 0] += 1
        }
        for index in 0..<Self.copyKills {
            let bytes = Int.random(in: 16_384...1_000_000, using: &random)
            let result = try attempt(
                { dir in .afterFileReaches(path: dir.file("out.db").path + ".scm-backup", bytes: bytes) },
                "SCM_TEST_SEED=\(seed), copy kill \(index) at \(bytes) bytes")
            // Killed before the copy was verified: nothing under the final name.
            #expect(result.found == .absent, "SCM_TEST_SEED=\(seed), copy kill \(index)")
            tally[result.found, default: 0] += 1
        }
        for index in 0..<Self.installKills {
            let delay = Double.random(in: 0...0.0005, using: &random)
            let result = try attempt(
                { dir in .afterFileContains(path: OperationJournal.path(for: dir.file("out.db").path), text: "phase=install", delay: delay)
                },
                "SCM_TEST_SEED=\(seed), install kill \(index) after \(delay)s")
            tally[result.found, default: 0] += 1
        }
        #expect(tally[.broken] == nil, "SCM_TEST_SEED=\(seed): \(tally)")
        print("backup kills, wal \(wal): \(tally.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", "))")
    }

    /// One run of the helper in a fresh directory; returns what was at `out.db` right after it,
    /// and checks that a second backup leaves only a complete backup, no leftover.
    private func attempt(
        _ kill: (TemporaryDirectory) -> FaultInjection.Kill, wal: Bool, context: String
    ) throws -> (found: Found, duration: TimeInterval) {
        let dir = TemporaryDirectory()
        try FaultInjection.install("encrypted.db", in: dir)
        if !wal {
            let source = dir.manager(configure: { $0.journalMode = .delete })
            try source.open(password: "old-secret")
            #expect(try source.scalar(String.self, "PRAGMA journal_mode") == "delete")
            source.close()
        }
        let run = try FaultInjection.run("backup", in: dir.url, kill: kill(dir))
        if !run.killed { #expect(run.status == 0, "\(context): \(run.errorOutput)") }
        let found = inspect(dir.file("out.db"))
        #expect(found != .broken, "\(context): a half backup under the final name")
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        defer { manager.close() }
        // The next backup first recovers the killed one: a copy killed after it was verified
        // is completed (it is then there, and refused as existing), any other is removed.
        let again = thrownCase { try manager.backup(to: dir.file("out.db")) }
        #expect(again == "none" || again == "fileAlreadyExists", "\(context)")
        if found == .complete { #expect(again == "fileAlreadyExists", "\(context)") }
        #expect(inspect(dir.file("out.db")) == .complete, "\(context)")
        #expect(FileSnapshot(dir.url).leftovers == [], "\(context)")
        return (found, run.duration)
    }

    /// What is at `url`, read without running recovery: nothing, or a backup that opens with its
    /// key, passes `integrity_check` and holds every row of the template.
    private func inspect(_ url: URL) -> Found {
        guard FileSystem.size(of: url.path) != nil else { return .absent }
        do {
            let configuration = TemporaryDirectory.manager(at: url).configuration
            let connection = try Unlocking.connect(
                path: url.path, mode: .readWrite, key: SecretBytes(password: "old-secret"), configuration: configuration)
            defer { connection.close() }
            let db = Database(connection: connection)
            guard try db.scalar(String.self, "PRAGMA integrity_check") == "ok" else { return .broken }
            return try RichDatabase.verify(db, rows: FaultInjection.rows).isEmpty ? .complete : .broken
        } catch {
            return .broken
        }
    }
}
