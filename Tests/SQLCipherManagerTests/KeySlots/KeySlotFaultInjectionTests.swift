import Foundation
import SeededRandom
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Kills `FaultInjectionHelper` with SIGKILL at random moments of every key-slot change, then
/// opens the files with a fresh manager (which finishes or rolls back the transition) and checks
/// that exactly the secrets valid before, or exactly those valid after, open the database, with
/// every row, and that no temporary file is left. Replay a run with the `SCM_TEST_SEED` printed;
/// a quick run (``TestDepth``) kills fewer times per flow.
@Suite("Fault injection: kill -9 during key-slot changes, data-key rotation and conversion", .serialized, .ownThread)
struct KeySlotFaultInjectionTests {
    /// Kills at random moments of each of the 6 flows (9 in a full run), and more for each
    /// re-encrypting flow aimed right after its journal says `phase=install` (3 in a full run).
    static let killsPerFlow = TestDepth.count(full: 9, quick: 3)
    static let aimedKills = TestDepth.count(full: 3, quick: 1)
    static let rows = 2000
    static let secrets = ["old-secret", "other-secret", "new-secret"]

    enum Flow: String, CaseIterable, Sendable {
        case change = "slots-change"
        case add = "slots-add"
        case remove = "slots-remove"
        case rotate = "slots-rotate"
        case convert = "slots-convert"
        case convertBack = "slots-convert-back"

        var template: String { self == .convert ? "password.db" : "slots.db" }

        /// The flows that re-encrypt the database (the export rekey and its journal).
        var reencrypts: Bool { self == .rotate || self == .convert || self == .convertBack }
    }

    /// A 2,000-row password database ("old-secret") and its key-slot conversion with a second
    /// password ("other-secret"), both in WAL mode with an empty `extra` table.
    static let templates: TemporaryDirectory = {
        let dir = TemporaryDirectory()
        do {
            try RichDatabase.makeEncrypted(in: dir, name: "password.db", rows: rows, wal: true)
            let manager = dir.keySlotManager("password.db")
            try manager.open(password: "old-secret")
            try manager.execute("CREATE TABLE extra(id INTEGER PRIMARY KEY, value INTEGER)")
            manager.close()
            try FileManager.default.copyItem(at: dir.file("password.db"), to: dir.file("slots.db"))
            let slots = dir.keySlotManager("slots.db")
            try slots.open(password: "old-secret")
            try slots.keySlots.enable(password: "old-secret")
            try slots.keySlots.add(password: "other-secret")
            slots.close()
        } catch {
            Issue.record("cannot build the key-slot fault-injection templates: \(error)")
        }
        atexit { try? FileManager.default.removeItem(at: KeySlotFaultInjectionTests.templates.url) }
        return dir
    }()

    static let templateDataKey: Data? = try? templates.keySlotManager("slots.db").keySlots.exportDataKey(password: "old-secret")

    enum State: String { case old, new, broken }

    @Test("SIGKILL at random moments: exactly the secrets before, or exactly those after, open the database", arguments: Flow.allCases)
    func killAtRandomMoments(_ flow: Flow) throws {
        let seed = FaultInjection.seed
        let index = UInt64(Flow.allCases.firstIndex(of: flow) ?? 0)
        TestDepth.announce("key-slot fault-injection \(flow.rawValue)", "\(Self.killsPerFlow) kills")
        var random = SeededGenerator(seed: seed &+ (index + 100) &* 0x1000_0000_0000_0001)
        let calibration = try attempt(flow, kill: { _ in .never }, context: "calibration run")
        #expect(!calibration.run.killed && calibration.run.status == 0, "\(calibration.run.errorOutput)")
        #expect(calibration.state == .new)
        var span = max(calibration.run.duration, 0.002)
        var runs = 0
        var kills = 0
        var states: [State: Int] = [:]
        while kills < Self.killsPerFlow, runs < Self.killsPerFlow * 4 {
            let delay = Double.random(in: 0...(span * 1.1), using: &random)
            let result = try attempt(
                flow, kill: { _ in .after(delay) }, context: "SCM_TEST_SEED=\(seed), \(flow.rawValue), run \(runs), delay \(delay)s")
            runs += 1
            if result.run.killed { kills += 1 }
            states[result.state, default: 0] += 1
            if !result.run.killed {
                #expect(result.run.status == 0, "\(result.run.errorOutput)")
                span = min(span, max(result.run.duration, 0.002))
            }
        }
        #expect(kills >= Self.killsPerFlow)
        if flow.reencrypts {
            // Aimed at the window after the re-encrypted file is installed, before `.next` is settled.
            for aimed in 0..<Self.aimedKills {
                let delay = Double.random(in: 0...0.002, using: &random)
                let result = try attempt(
                    flow,
                    kill: { dir in
                        .afterFileContains(
                            path: OperationJournal.path(for: FileSystem.resolvedPath(dir.file().path)),
                            text: "phase=install", delay: delay)
                    }, context: "SCM_TEST_SEED=\(seed), \(flow.rawValue), aimed kill \(aimed), delay \(delay)s")
                runs += 1
                if result.run.killed { kills += 1 }
                states[result.state, default: 0] += 1
            }
        }
        #expect(states[.broken] == nil)
        print(
            "key-slot fault-injection \(flow.rawValue): \(kills) kills in \(runs) runs; after recovery "
                + "\(states[.old] ?? 0) old, \(states[.new] ?? 0) new; flow ≈ \(Int(span * 1000)) ms")
    }

    // MARK: - One attempt

    private func attempt(
        _ flow: Flow, kill: (TemporaryDirectory) -> FaultInjection.Kill, context: String
    ) throws -> (run: FaultInjection.Run, state: State) {
        let dir = TemporaryDirectory()
        try FileManager.default.copyItem(at: Self.templates.file(flow.template), to: dir.file("test.db"))
        if flow.template == "slots.db" {
            try FileManager.default.copyItem(at: Self.templates.slotFile("slots.db"), to: dir.slotFile())
        }
        let run = try FaultInjection.run(flow.rawValue, in: dir.url, kill: kill(dir))
        let opens = Dictionary(uniqueKeysWithValues: Self.secrets.map { ($0, itemOpens(dir, $0)) })
        let (state, problems) = check(flow, opens: opens, dir: dir)
        var allProblems = problems
        if let secret = Self.secrets.first(where: { opens[$0] == "none" }) {
            allProblems += contentProblems(dir, password: secret)
        }
        let leftovers = FileSnapshot(dir.url).leftovers.filter { $0 != "test.db.scm-keys" }
        #expect(allProblems == [], "\(context): \(state.rawValue) state, opens: \(opens)")
        #expect(leftovers == [], "\(context)")
        return (run, allProblems.isEmpty ? state : .broken)
    }

    private func itemOpens(_ dir: TemporaryDirectory, _ secret: String) -> String {
        dir.openResult(password: secret) { $0.keySlots = .fast }
    }

    /// Which state the secrets that open show, or the problem.
    private func check(_ flow: Flow, opens: [String: String], dir: TemporaryDirectory) -> (State, [String]) {
        let valid = Set(Self.secrets.filter { opens[$0] == "none" })
        let wrong = Set(Self.secrets.filter { opens[$0] == "incorrectPasswordOrSettings" })
        guard valid.union(wrong).count == Self.secrets.count else { return (.broken, ["unexpected outcome"]) }
        let (before, after): (Set<String>, Set<String>) =
            switch flow {
            case .change: (["old-secret", "other-secret"], ["new-secret", "other-secret"])
            case .add: (["old-secret", "other-secret"], Set(Self.secrets))
            case .remove: (["old-secret", "other-secret"], ["old-secret"])
            case .rotate, .convert: (flow == .convert ? ["old-secret"] : ["old-secret", "other-secret"], [])
            case .convertBack: (["old-secret", "other-secret"], ["new-secret"])
            }
        if flow == .rotate || flow == .convert {
            guard valid == before else { return (.broken, ["valid secrets: \(valid.sorted())"]) }
            return (isNewState(flow, dir) ? .new : .old, [])
        }
        if valid == before { return (.old, []) }
        if valid == after { return (.new, []) }
        return (.broken, ["valid secrets: \(valid.sorted()), before \(before.sorted()), after \(after.sorted())"])
    }

    /// Rotation: the data key changed. Conversion: the database now uses key slots.
    private func isNewState(_ flow: Flow, _ dir: TemporaryDirectory) -> Bool {
        let manager = dir.keySlotManager()
        if flow == .convert { return manager.keySlots.isEnabled && FileManager.default.fileExists(atPath: dir.slotFile().path) }
        return (try? manager.keySlots.exportDataKey(password: "old-secret")) != Self.templateDataKey
    }

    private func contentProblems(_ dir: TemporaryDirectory, password: String) -> [String] {
        do {
            return try dir.withOpened(password: password, configure: { $0.keySlots = .fast }) { db in
                var problems = try RichDatabase.verify(db, rows: Self.rows)
                let extra = try db.scalar(Int.self, "SELECT count(*) FROM extra") ?? -1
                if extra != 0 { problems.append("extra has \(extra) rows") }
                return problems
            }
        } catch {
            return ["open with \(password): \(error)"]
        }
    }
}
