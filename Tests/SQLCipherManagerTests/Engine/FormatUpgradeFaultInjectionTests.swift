import Foundation
import SeededRandom
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Kills `FaultInjectionHelper upgrade` (``DatabaseManager/upgradeFormat(progress:)`` of a
/// SQLCipher 2-format file, on either SQLCipher) with SIGKILL at random moments and right after
/// the journal reaches its install phase, then checks with fresh managers (whose open runs
/// recovery) that the file opens in exactly one format — the old one with its settings, or the
/// linked library's with the defaults — with every row, `user_version`, `application_id` and
/// its journal mode, and that no temporary file is left. Replay a run with the `SCM_TEST_SEED`
/// printed; a quick run (``TestDepth``) kills fewer times.
@Suite("Fault injection: kill -9 during a format upgrade", .serialized, .ownThread)
struct FormatUpgradeFaultInjectionTests {
    static let rows = 3000
    static let kills = TestDepth.count(full: 10, quick: 3)
    static let aimedKills = TestDepth.count(full: 3, quick: 1)

    /// A SQLCipher 2-format template ("old-secret") per journal mode.
    static let templates: TemporaryDirectory = {
        let dir = TemporaryDirectory()
        for mode in [JournalMode.wal, .delete] {
            let configuration = DatabaseConfiguration(cipher: LegacyFile.sqlcipher2Options, journalMode: mode)
            let manager = DatabaseManager(url: dir.file(mode.rawValue + ".db"), configuration: configuration)
            do {
                try manager.create(password: "old-secret")
                try manager.withDatabase { try RichDatabase.populate($0, rows: rows) }
            } catch {
                Issue.record("cannot build the upgrade template: \(error)")
            }
            manager.close()
        }
        atexit { try? FileManager.default.removeItem(at: FormatUpgradeFaultInjectionTests.templates.url) }
        return dir
    }()

    enum State: String {
        case old, new, broken
    }

    @Test("SIGKILL at random moments of an upgrade: one format opens, with every row", arguments: [JournalMode.wal, .delete])
    func killAtRandomMoments(_ mode: JournalMode) throws {
        let seed = FaultInjection.seed
        TestDepth.announce("upgrade fault-injection \(mode.rawValue)", "\(Self.kills) kills, \(Self.aimedKills) aimed")
        var random = SeededGenerator(seed: seed &+ (mode == .wal ? 0 : 1))
        let calibration = try attempt(mode, kill: { _ in .never }, context: "calibration run")
        #expect(!calibration.run.killed && calibration.run.status == 0, "\(calibration.run.errorOutput)")
        #expect(calibration.state == .new)
        let span = max(calibration.run.duration, 0.01)
        var states: [State: Int] = [:]
        var kills = 0
        var runs = 0
        while kills < Self.kills, runs < Self.kills * 4 {
            let delay = Double.random(in: 0...(span * 1.1), using: &random)
            let result = try attempt(mode, kill: { _ in .after(delay) }, context: "SCM_TEST_SEED=\(seed), run \(runs), delay \(delay)s")
            runs += 1
            if result.run.killed { kills += 1 }
            states[result.state, default: 0] += 1
        }
        var aimed = 0
        for run in 0..<(Self.aimedKills * 3) where aimed < Self.aimedKills {
            let delay = Double.random(in: 0...0.0005, using: &random)
            let result = try attempt(
                mode,
                kill: { dir in
                    .afterFileContains(path: OperationJournal.path(for: dir.file().path), text: "phase=install", delay: delay)
                }, context: "SCM_TEST_SEED=\(seed), install kill \(run), delay \(delay)s")
            if result.run.killed { aimed += 1 }
            states[result.state, default: 0] += 1
        }
        #expect(kills >= Self.kills)
        #expect(states[.broken] == nil)
        print(
            "upgrade fault-injection \(mode.rawValue): \(kills) kills, \(aimed) at the install; \(states[.old] ?? 0) old, \(states[.new] ?? 0) new"
        )
    }

    // MARK: - One attempt

    private func attempt(
        _ mode: JournalMode, kill: (TemporaryDirectory) -> FaultInjection.Kill, context: String
    ) throws -> (run: FaultInjection.Run, state: State) {
        let dir = TemporaryDirectory()
        try FileManager.default.copyItem(at: Self.templates.file(mode.rawValue + ".db"), to: dir.file())
        let run = try FaultInjection.run("upgrade", in: dir.url, kill: kill(dir))
        let (state, problems) = check(dir, mode: mode)
        #expect(problems == [], "\(context): \(state.rawValue) state")
        #expect(FileSnapshot(dir.url).leftovers == [], "\(context)")
        return (run, problems.isEmpty ? state : .broken)
    }

    /// Exactly one of the old settings and the linked library's defaults opens the file; that
    /// one has every row and the journal mode.
    private func check(_ dir: TemporaryDirectory, mode: JournalMode) -> (State, [String]) {
        let old = DatabaseManager(url: dir.file(), configuration: DatabaseConfiguration(cipher: LegacyFile.sqlcipher2Options))
        let new = DatabaseManager(url: dir.file())
        let opened = [old, new].map { manager in thrownCase { try manager.open(password: "old-secret") } }
        defer { [old, new].forEach { $0.close() } }
        guard opened.filter({ $0 == "none" }).count == 1, opened.contains("incorrectPasswordOrSettings") else {
            return (.broken, ["old settings: \(opened[0]), linked defaults: \(opened[1])"])
        }
        let manager = opened[0] == "none" ? old : new
        do {
            var problems = try manager.withDatabase { try RichDatabase.verify($0, rows: Self.rows) }
            let journal = try manager.scalar(String.self, "PRAGMA journal_mode")
            if journal != mode.rawValue.lowercased() { problems.append("journal mode \(journal ?? "nil")") }
            let format = manager.fileFormat?.majorVersion
            if format != (manager === old ? 2 : LegacyFile.linkedMajor) { problems.append("format \(String(describing: format))") }
            return (manager === old ? .old : .new, problems)
        } catch {
            return (.broken, ["\(error)"])
        }
    }
}
