import Foundation
import SeededRandom
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Kills FaultInjectionHelper's `first-launch` flow (FileKeyStore + openOrCreate, then one
/// transaction of 200 rows) with SIGKILL at random moments, then runs the next launch in this
/// process: it must open the database with the stored key and find every row. Replay with the
/// `SCM_TEST_SEED` printed; a quick run (``TestDepth``) kills fewer times.
@Suite("Fault injection: kill -9 during the first launch (key stored, then create / encrypt)", .serialized, .ownThread)
struct FirstLaunchFaultInjectionTests {
    enum Start: String, CaseIterable, Sendable {
        /// An old app version's plaintext store (20,000 rows) is at the path.
        case plaintextStore = "plaintext store"
        /// Nothing is at the path.
        case noDatabase = "no database"

        var kills: Int { self == .plaintextStore ? TestDepth.count(full: 24, quick: 4) : TestDepth.count(full: 8, quick: 2) }
    }

    @Test(
        "SIGKILL at random moments of the first launch; the next launch opens every row with the stored key",
        arguments: Start.allCases)
    func killDuringFirstLaunch(_ start: Start) throws {
        let seed = FaultInjection.seed
        TestDepth.announce("first-launch fault-injection \(start.rawValue)", "\(start.kills) kills")
        var random = SeededGenerator(seed: seed &+ (start == .noDatabase ? 0x51 : 0x17))
        let calibration = try attempt(start, kill: .never, context: "calibration")
        #expect(!calibration.run.killed && calibration.run.status == 0, "\(calibration.run.errorOutput)")
        var span = max(calibration.run.duration, 0.002)
        var kills = 0
        var runs = 0
        var found: [String: Int] = [:]
        while kills < start.kills, runs < start.kills * 4 {
            let delay = Double.random(in: 0...(span * 1.1), using: &random)
            let result = try attempt(
                start, kill: .after(delay), context: "SCM_TEST_SEED=\(seed), \(start.rawValue), run \(runs), delay \(delay)s")
            runs += 1
            if result.run.killed {
                kills += 1
                found[result.found, default: 0] += 1
            } else {
                #expect(result.run.status == 0, "\(result.run.errorOutput)")
                span = min(span, max(result.run.duration, 0.002))
            }
        }
        #expect(kills >= start.kills)
        print(
            "first-launch fault-injection \(start.rawValue): \(kills) kills in \(runs) runs; flow ≈ \(Int(span * 1000)) ms; "
                + "found after the kill: " + found.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    // MARK: - One attempt

    private func attempt(
        _ start: Start, kill: FaultInjection.Kill, context: String
    ) throws -> (run: FaultInjection.Run, found: String) {
        let dir = TemporaryDirectory()
        if start == .plaintextStore { try FaultInjection.install("plain.db", in: dir) }
        let run = try FaultInjection.run("first-launch", in: dir.url, kill: kill)
        let found = stateAfterKill(dir)
        let problems = nextLaunchProblems(start, dir)
        #expect(problems == [], "\(context): found \(found)")
        #expect(FileSnapshot(dir.url).leftovers == [], "\(context)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("keys/.db.tmp").path), "\(context): a temporary key file is left")
        return (run, found)
    }

    /// What the kill left: key stored or not, and the database's state.
    private func stateAfterKill(_ dir: TemporaryDirectory) -> String {
        let key = FileManager.default.fileExists(atPath: dir.file("keys/db").path) ? "key" : "no key"
        let journal = (try? OperationJournal.read(for: dir.file().path))??.phase.rawValue
        let file: String
        switch DatabaseFile(path: dir.file().path).kind() {
        case .missing: file = "no database"
        case .plaintextSQLite: file = journal.map { "plaintext, journal \($0)" } ?? "plaintext"
        default: file = journal.map { "encrypted, journal \($0)" } ?? "encrypted"
        }
        return "\(key) + \(file)"
    }

    /// The next launch: openOrCreate with the same store, then every row.
    private func nextLaunchProblems(_ start: Start, _ dir: TemporaryDirectory) -> [String] {
        let manager = dir.manager()
        defer { manager.close() }
        do {
            try manager.openOrCreate(keyStore: FileKeyStore(directory: dir.file("keys")), identifier: "db")
            var problems = DatabaseFile(path: dir.file().path).isPlaintextSQLite ? ["the database is still plaintext"] : []
            try manager.withDatabase { db in
                if start == .plaintextStore { problems += try RichDatabase.verify(db, rows: FaultInjection.rows) }
                let table = try db.scalar(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'launch'") ?? 0
                let rows = table == 0 ? 0 : try db.scalar(Int.self, "SELECT count(*) FROM launch") ?? -1
                if rows != 0, rows != 200 { problems.append("launch has \(rows) rows, expected 0 or 200") }
            }
            return problems
        } catch {
            return ["the next launch failed: \(error)"]
        }
    }
}
