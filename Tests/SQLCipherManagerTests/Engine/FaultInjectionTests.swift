import Foundation
import SeededRandom
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Kills a helper process with SIGKILL at random moments of each flow, then checks with a fresh
/// manager (whose open runs recovery) that the file opens with exactly one of the old and new
/// keys (or is exactly one of plaintext / encrypted) with every row, `user_version` and
/// `application_id`, and that no temporary file is left. Replay a run with the
/// `SCM_TEST_SEED` it prints; a quick run (``TestDepth``) kills fewer times per flow.
@Suite("Fault injection: kill -9 during rekey, encrypt, decrypt and adopt", .serialized, .ownThread)
struct FaultInjectionTests {
    /// Kills at random moments of each flow.
    static let killsPerFlow = TestDepth.count(full: 16, quick: 4)
    /// Kills to land in the short install window: right after the journal enters its last step.
    static let installKillsPerFlow = TestDepth.count(full: 4, quick: 1)

    enum Flow: String, CaseIterable, Sendable {
        /// In place: no journal of ours, SQLite's own.
        case rekey
        /// The same key change with explicit settings: export, verify, rename.
        case rekeyExport = "rekey-export"
        case encryptInPlace = "encrypt-in-place"
        case encryptToPath = "encrypt-to-path"
        case decrypt
        case adopt

        /// The file the flow replaces or creates.
        func target(in dir: TemporaryDirectory) -> URL {
            dir.file(self == .encryptToPath || self == .decrypt ? "out.db" : "test.db")
        }

        var template: String {
            switch self {
            case .rekey, .rekeyExport, .decrypt: "encrypted.db"
            case .encryptInPlace, .encryptToPath, .adopt: "plain.db"
            }
        }
    }

    /// Which of the two states the files were found in after recovery.
    enum State: String {
        /// Before the operation: old key, plaintext, or no destination.
        case old
        /// After it: new key, encrypted, or a complete destination.
        case new
        case broken
    }

    /// What the kills of one flow did.
    struct Tally {
        var runs = 0
        var kills = 0
        var aimedHits = 0
        var states: [State: Int] = [:]
        var journals: [String: Int] = [:]

        mutating func record(_ result: (run: FaultInjection.Run, state: State, journal: String)) {
            runs += 1
            if result.run.killed { kills += 1 }
            states[result.state, default: 0] += 1
            journals[result.journal, default: 0] += 1
        }

        var summary: String {
            "\(kills) kills (\(aimedHits) aimed at the install step) in \(runs) runs; journal found: "
                + journals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "; after recovery \(states[.old] ?? 0) old, \(states[.new] ?? 0) new"
        }
    }

    @Test("SIGKILL at random moments; the database is always whole and in exactly one state", arguments: Flow.allCases)
    func killAtRandomMoments(_ flow: Flow) throws {
        let seed = FaultInjection.seed
        let index = UInt64(Flow.allCases.firstIndex(of: flow) ?? 0)
        TestDepth.announce("fault-injection \(flow.rawValue)", "\(Self.killsPerFlow) kills, \(Self.installKillsPerFlow) aimed")
        var random = SeededGenerator(seed: seed &+ index &* 0x1000_0000_0000_0001)
        let started = Date()
        let calibration = try attempt(flow, kill: { _ in .never }, context: "calibration run")
        #expect(!calibration.run.killed && calibration.run.status == 0, "\(calibration.run.errorOutput)")
        #expect(calibration.state == .new)
        var span = max(calibration.run.duration, 0.01)
        var tally = Tally()
        while tally.kills < Self.killsPerFlow, tally.runs < Self.killsPerFlow * 4 {
            // Half anywhere in the flow, half near its end, where the copy is verified and swapped in.
            let delay =
                Bool.random(using: &random)
                ? Double.random(in: 0...(span * 1.1), using: &random)
                : Double.random(in: (span * 0.75)...(span * 1.05), using: &random)
            let result = try attempt(
                flow, kill: { _ in .after(delay) }, context: "SCM_TEST_SEED=\(seed), \(flow.rawValue), run \(tally.runs), delay \(delay)s")
            tally.record(result)
            if !result.run.killed {
                #expect(result.run.status == 0, "\(result.run.errorOutput)")
                span = min(span, max(result.run.duration, 0.01))
            }
        }
        #expect(tally.kills >= Self.killsPerFlow)
        try aimAtInstall(flow, seed: seed, random: &random, tally: &tally)
        #expect(tally.states[.broken] == nil)
        print(
            "fault-injection \(flow.rawValue): \(tally.summary); flow ≈ \(Int(span * 1000)) ms; "
                + "\(Int(Date().timeIntervalSince(started))) s")
    }

    /// Kills right after the journal enters its last step (`phase=retire` for the flows that
    /// replace a file, `phase=install` for those that create one), until that many land there (a
    /// fast install can finish before the kill; ReplaceWindowTests stops at each step exactly,
    /// and the hand-built states in RecoveryTests cover the rest).
    private func aimAtInstall(_ flow: Flow, seed: UInt64, random: inout SeededGenerator, tally: inout Tally) throws {
        guard flow != .rekey else { return }  // in place: nothing is installed
        let phase = flow == .encryptToPath || flow == .decrypt ? "install" : "retire"
        for aimed in 0..<(Self.installKillsPerFlow * 3) where tally.aimedHits < Self.installKillsPerFlow {
            let delay = Double.random(in: 0...0.0005, using: &random)
            let result = try attempt(
                flow,
                kill: { dir in
                    .afterFileContains(path: OperationJournal.path(for: flow.target(in: dir).path), text: "phase=" + phase, delay: delay)
                }, context: "SCM_TEST_SEED=\(seed), \(flow.rawValue), \(phase) kill \(aimed), delay \(delay)s")
            tally.record(result)
            if result.run.killed, result.journal == phase { tally.aimedHits += 1 }
        }
    }

    @Test("a rekey with new settings paused in another process is not recovered under it; it then finishes normally")
    func operationInAnotherProcessIsLeftAlone() throws {
        let dir = TemporaryDirectory()
        try FaultInjection.install(Flow.rekeyExport.template, in: dir)
        let journal = OperationJournal.path(for: dir.file().path)
        var whilePaused: (outcome: String, open: String, files: [String]) = ("", "", [])
        let run = try FaultInjection.run(
            Flow.rekeyExport.rawValue, in: dir.url,
            kill: .pauseWhenFileContains(
                path: journal, text: "phase=export",
                body: {
                    let before = FileSnapshot(dir.url)
                    whilePaused.outcome = thrownCase { try DatabaseTools.recoverInterruptedOperation(at: dir.file()) }
                    whilePaused.open = dir.openResult(password: "old-secret")
                    whilePaused.files = FileSnapshot(dir.url).differences(from: before)
                }))

        #expect(whilePaused.outcome == "operationInProgress")
        #expect(whilePaused.open == "operationInProgress")
        #expect(whilePaused.files == [])
        #expect(!run.killed && run.status == 0, "\(run.errorOutput)")
        #expect(checkRekey(dir).0 == .new)
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    // MARK: - One attempt

    private func attempt(
        _ flow: Flow, kill: (TemporaryDirectory) -> FaultInjection.Kill, context: String
    ) throws -> (run: FaultInjection.Run, state: State, journal: String) {
        let dir = TemporaryDirectory()
        try FaultInjection.install(flow.template, in: dir)
        let run = try FaultInjection.run(flow.rawValue, in: dir.url, kill: kill(dir))
        let journal = (try? OperationJournal.read(for: flow.target(in: dir).path))??.phase.rawValue ?? "none"
        let (state, problems) = check(flow, in: dir)
        let leftovers = FileSnapshot(dir.url).leftovers
        #expect(problems == [], "\(context): \(state.rawValue) state")
        #expect(leftovers == [], "\(context)")
        return (run, problems.isEmpty ? state : .broken, journal)
    }

    private func check(_ flow: Flow, in dir: TemporaryDirectory) -> (State, [String]) {
        switch flow {
        case .rekey, .rekeyExport: checkRekey(dir)
        case .encryptInPlace, .adopt: checkEncryptInPlace(dir)
        case .encryptToPath: checkEncryptToPath(dir)
        case .decrypt: checkDecrypt(dir)
        }
    }

    // MARK: - Checks per flow

    /// Exactly one of the two passwords opens the file (the first open runs recovery). The
    /// other is refused as a wrong password, or (an in-place change killed before it removed
    /// its marker) as the other side of an interrupted change.
    private func checkRekey(_ dir: TemporaryDirectory) -> (State, [String]) {
        let old = dir.openResult(password: "old-secret")
        let new = dir.openResult(password: "new-secret")
        let refusals: Set = ["incorrectPasswordOrSettings", "keyChangeInterrupted"]
        guard [old, new].filter({ $0 == "none" }).count == 1, refusals.contains(old == "none" ? new : old) else {
            return (.broken, ["old password: \(old), new password: \(new)"])
        }
        let password = old == "none" ? "old-secret" : "new-secret"
        return (old == "none" ? .old : .new, encryptedProblems(dir, "test.db", password: password, extraRows: FaultInjection.extraRows))
    }

    /// The file is either the plaintext original or the encrypted copy, whole.
    private func checkEncryptInPlace(_ dir: TemporaryDirectory) -> (State, [String]) {
        switch dir.openResult(password: "new-secret") {
        case "none": return (.new, encryptedProblems(dir, "test.db", password: "new-secret"))
        case "plaintextDatabase": return (.old, plaintextProblems(dir.file()))
        case let other: return (.broken, ["open with the new password: \(other)"])
        }
    }

    /// The source is byte for byte the template; the destination is absent or whole.
    private func checkEncryptToPath(_ dir: TemporaryDirectory) -> (State, [String]) {
        var problems = plaintextProblems(dir.file())
        if Fixture.bytes(dir.file()) != Fixture.bytes(FaultInjection.templates.file("plain.db")) {
            problems.append("the source file changed")
        }
        switch dir.openResult("out.db", password: "new-secret") {
        case "none": return (.new, problems + encryptedProblems(dir, "out.db", password: "new-secret"))
        case "fileNotFound": return (.old, problems)
        case let other: return (.broken, problems + ["destination: \(other)"])
        }
    }

    /// The source still opens with its password; the plaintext copy is absent or whole.
    private func checkDecrypt(_ dir: TemporaryDirectory) -> (State, [String]) {
        var problems = encryptedProblems(dir, "test.db", password: "old-secret")
        do {
            try DatabaseTools.recoverInterruptedOperation(at: dir.file("out.db"))
        } catch {
            problems.append("recovery of the destination: \(error)")
        }
        guard FileManager.default.fileExists(atPath: dir.file("out.db").path) else { return (.old, problems) }
        return (.new, problems + plaintextProblems(dir.file("out.db")))
    }

    // MARK: - Content

    private func encryptedProblems(_ dir: TemporaryDirectory, _ name: String, password: String, extraRows: Int = 0) -> [String] {
        if DatabaseFile(path: dir.file(name).path).isPlaintextSQLite { return ["\(name) is plaintext"] }
        do {
            return try dir.withOpened(name, password: password) { db in
                var problems = try RichDatabase.verify(db, rows: FaultInjection.rows)
                let extra = try db.scalar(Int.self, "SELECT count(*) FROM extra") ?? -1
                if extra != extraRows { problems.append("extra has \(extra) rows, expected \(extraRows)") }
                return problems
            }
        } catch {
            return ["\(name) with \(password): \(error)"]
        }
    }

    private func plaintextProblems(_ url: URL) -> [String] {
        guard DatabaseFile(path: url.path).isPlaintextSQLite else { return ["\(url.lastPathComponent) is not plaintext"] }
        do {
            let connection = try Connection(path: url.path, mode: .readWrite)
            defer { connection.close() }
            return try RichDatabase.verify(Database(connection: connection), rows: FaultInjection.rows)
        } catch {
            return ["\(url.lastPathComponent): \(error)"]
        }
    }
}
