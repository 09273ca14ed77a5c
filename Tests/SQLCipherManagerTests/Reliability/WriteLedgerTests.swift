import Foundation
import SeededRandom
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - Write ledgers

/// A writer inserts rows while a key change runs on the same file and records every insert
/// that returned success; afterwards every recorded row must be in the file, which must open
/// under exactly one key. Replay with the `SCM_TEST_SEED` printed; `SCM_LEDGER_TRIALS=<n>` sets
/// the trials (20 in a full run, 1 in a quick one: ``TestDepth``).
@Suite("Write ledgers: no acknowledged write is lost during rekey, encrypt, settings, adopt", .ownThread)
struct WriteLedgerTests {
    static let trials =
        ProcessInfo.processInfo.environment["SCM_LEDGER_TRIALS"].flatMap(Int.init) ?? TestDepth.count(full: 20, quick: 1)

    @Test("a sibling manager (or a plain connection) writing on another thread", arguments: LedgerFlow.allCases, [false, true])
    func threadWriter(flow: LedgerFlow, wal: Bool) throws {
        var random = SeededGenerator(seed: FaultInjection.seed ^ UInt64(flow.index * 2 + (wal ? 1 : 0)))
        TestDepth.announce("write ledger (thread) \(flow) wal=\(wal)", "\(Self.trials) trials")
        var totals = LedgerTotals()
        for trial in 0..<Self.trials {
            let dir = TemporaryDirectory()
            let scene = try LedgerScene(flow: flow, wal: wal, dir: dir)
            let writer = scene.startThreadWriter(pause: UInt32.random(in: 200...2000, using: &random))
            Thread.sleep(forTimeInterval: Double.random(in: 0.002...0.02, using: &random))
            let changed = Result { try scene.changeKey() }
            // A sibling must keep working: give it the time to write again under the new key.
            writer.waitForWriteAfterChange(timeout: flow.hasSibling ? 5 : 0.02)
            let ledger = writer.stop()
            let outcome = try scene.check(ledger: ledger, changed: changed)
            totals.add(outcome)
            #expect(
                outcome.missing.isEmpty, "trial \(trial): \(outcome.missing.count) acknowledged rows missing (\(TestDepth.replay))")
            if flow.hasSibling, case .success = changed {
                #expect(outcome.acknowledgedAfter > 0, "trial \(trial): the sibling stopped working after the key change")
                #expect(scene.siblingDelegate.events.contains(.didRekey), "trial \(trial): the sibling heard no didRekey")
            }
        }
        print("write ledger (thread) \(flow) wal=\(wal): \(totals)")
    }

    @Test("a writer in another process", arguments: LedgerFlow.allCases, [false, true])
    func processWriter(flow: LedgerFlow, wal: Bool) throws {
        guard FaultInjection.helperURL != nil else { throw FaultInjection.HelperMissing() }
        var random = SeededGenerator(seed: FaultInjection.seed ^ UInt64(100 + flow.index * 2 + (wal ? 1 : 0)))
        TestDepth.announce("write ledger (process) \(flow) wal=\(wal)", "\(Self.trials) trials")
        var totals = LedgerTotals()
        for trial in 0..<Self.trials {
            let dir = TemporaryDirectory()
            let scene = try LedgerScene(flow: flow, wal: wal, dir: dir, sibling: false)
            let writer = try LedgerProcess(scene: scene)
            Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.03, using: &random))
            let changed = Result { try scene.changeKey() }
            writer.markChanged()
            // A rekey's writer reopens with the new password before it writes on: wait for its
            // first acknowledged row after the change (a fixed pause is too short under load).
            if flow == .rekey {
                writer.waitForAcknowledgedAfter(timeout: 20)
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
            let ledger = try writer.stop()
            let outcome = try scene.check(ledger: ledger, changed: changed)
            totals.add(outcome)
            #expect(
                outcome.missing.isEmpty, "trial \(trial): \(outcome.missing.count) acknowledged rows missing (\(TestDepth.replay))")
            if flow == .rekey {
                // In place, also with another program's writer: it always goes through; the
                // writer's first insert after it fails (keyChanged), it reopens with the new
                // password and writes on.
                #expect(throws: Never.self, "trial \(trial)") { try changed.get() }
                #expect(writer.reopenedWith() == ["new-secret"], "trial \(trial)")
                #expect(ledger.failed > 0 && ledger.acknowledgedAfter > 0, "trial \(trial)")
            } else if wal, case .failure(let error) = changed {
                // Another program has the WAL database open: refused, naming it.
                guard case .openElsewhere(_, let pid, _)? = error as? DatabaseManagerError else {
                    Issue.record("trial \(trial): expected openElsewhere, got \(error)")
                    continue
                }
                #expect(pid == writer.processID)
            }
        }
        print("write ledger (process) \(flow) wal=\(wal): \(totals)")
    }
}

// MARK: - Flows

enum LedgerFlow: String, CaseIterable, CustomStringConvertible {
    case rekey, encryptInPlace, settings, adopt

    var index: Int { Self.allCases.firstIndex(of: self)! }
    var description: String { rawValue }
    /// The source is encrypted (a sibling manager writes); otherwise plaintext (a plain connection writes).
    var hasSibling: Bool { self == .rekey || self == .settings }
    var finalPassword: String { self == .settings ? "old-secret" : "new-secret" }
    var finalOptions: CipherOptions { CipherOptions(kdfIterations: self == .settings ? 5000 : 4000, allowsLegacyKDFIterations: true) }
}

struct LedgerTotals: CustomStringConvertible {
    var trials = 0, changed = 0, refused = 0, acknowledged = 0, missing = 0, failedWrites = 0

    mutating func add(_ outcome: LedgerOutcome) {
        trials += 1
        if outcome.changed { changed += 1 } else { refused += 1 }
        acknowledged += outcome.acknowledged
        missing += outcome.missing.count
        failedWrites += outcome.failedWrites
    }

    var description: String {
        "\(trials) trials, \(changed) key changes done, \(refused) refused, \(acknowledged) acknowledged writes, "
            + "\(failedWrites) writes refused with an error, \(missing) acknowledged writes missing"
    }
}

struct LedgerOutcome {
    let changed: Bool
    let acknowledged: Int
    let acknowledgedAfter: Int
    let failedWrites: Int
    let missing: [Int]
}

/// What a writer recorded.
struct LedgerRecord {
    /// Every id whose insert returned success, in order.
    var acknowledged: [Int] = []
    /// How many of them returned after the key change finished.
    var acknowledgedAfter = 0
    /// Inserts that threw (busy, replaced…): not acknowledged, so not expected in the file.
    var failed = 0
}

// MARK: - Scene

/// One file, its writer and the key change.
final class LedgerScene: @unchecked Sendable {
    // @unchecked: `changeFinished` is written by the test thread and read by the writer thread
    // under `lock`; everything else is set in init.
    let flow: LedgerFlow
    let wal: Bool
    let dir: TemporaryDirectory
    let url: URL
    let manager: DatabaseManager
    let sibling: DatabaseManager?
    let siblingDelegate = RecordingDelegate()
    private let lock = NSLock()
    private var _changeFinished = false
    var changeFinished: Bool { lock.withLock { _changeFinished } }

    init(flow: LedgerFlow, wal: Bool, dir: TemporaryDirectory, sibling: Bool = true) throws {
        self.flow = flow
        self.wal = wal
        self.dir = dir
        url = dir.file("ledger.db")
        let table = "CREATE TABLE ledger(id INTEGER PRIMARY KEY, body TEXT)"
        let mode = wal ? "PRAGMA journal_mode = WAL" : "PRAGMA journal_mode = DELETE"
        if flow.hasSibling {
            let creator = dir.manager("ledger.db")
            try creator.create(password: "old-secret")
            try creator.executeScript(mode + "; " + table)
            creator.close()
            manager = dir.manager("ledger.db")
            try manager.open(password: "old-secret")
            if sibling {
                let other = dir.manager("ledger.db") { $0.busyTimeout = .seconds(10) }
                other.delegate = siblingDelegate
                try other.open(password: "old-secret")
                self.sibling = other
            } else {
                self.sibling = nil
            }
        } else {
            let plain = try Connection(path: url.path, mode: .readWriteCreate)
            try plain.executeScript(mode + "; " + table)
            plain.close()
            manager = dir.manager("ledger.db") { $0.adoptsPlaintextDatabase = true }
            self.sibling = nil
        }
    }

    /// Runs the flow's key change on the main manager.
    func changeKey() throws {
        defer { lock.withLock { _changeFinished = true } }
        switch flow {
        case .rekey: try manager.rekey(to: .password("new-secret"))
        case .settings: try manager.rekey(to: .password("old-secret"), options: flow.finalOptions)
        case .encryptInPlace:
            try DatabaseTools.encryptPlaintextDatabase(
                at: url, password: "new-secret", configuration: DatabaseConfiguration(cipher: flow.finalOptions))
        case .adopt: try manager.open(password: "new-secret")
        }
    }

    /// Inserts from a thread until stopped: through the sibling manager, or a plain connection.
    func startThreadWriter(pause microseconds: UInt32) -> ThreadWriter {
        let writer = ThreadWriter()
        let thread = Thread { [self] in
            var record = LedgerRecord()
            let plain = sibling == nil ? try? Connection(path: url.path, mode: .readWrite) : nil
            try? plain?.setBusyTimeout(milliseconds: 10_000)
            var id = 1
            while !writer.isStopping {
                let after = changeFinished
                do {
                    if let sibling {
                        try sibling.execute("INSERT INTO ledger(id, body) VALUES (?, ?)", id, "row \(id)")
                    } else if let plain {
                        try plain.executeScript("INSERT INTO ledger(id, body) VALUES (\(id), 'row \(id)')")
                    }
                    record.acknowledged.append(id)
                    if after {
                        record.acknowledgedAfter += 1
                        writer.noteWriteAfterChange()
                    }
                } catch {
                    record.failed += 1
                }
                id += 1
                usleep(microseconds)
            }
            plain?.close()
            writer.finish(record)
        }
        thread.start()
        return writer
    }

    /// Every acknowledged row must be in the file, which opens with exactly one of the keys.
    func check(ledger: LedgerRecord, changed: Result<Void, any Error>) throws -> LedgerOutcome {
        sibling?.close()
        manager.close()
        let didChange: Bool
        if case .failure(let error) = changed {
            // A refusal is allowed (busy, with advice); a loss is not.
            #expect(error is DatabaseManagerError, "untyped failure: \(error)")
            didChange = false
        } else {
            didChange = true
        }
        let ids = try readIDs(changed: didChange)
        #expect(try integrityCheck(changed: didChange) == "ok")
        let missing = ledger.acknowledged.filter { !ids.contains($0) }
        return LedgerOutcome(
            changed: didChange, acknowledged: ledger.acknowledged.count, acknowledgedAfter: ledger.acknowledgedAfter,
            failedWrites: ledger.failed, missing: missing)
    }

    /// `PRAGMA integrity_check` under the key the flow leaves (encrypted files only).
    private func integrityCheck(changed: Bool) throws -> String? {
        guard flow.hasSibling || changed else { return "ok" }
        let reader = TemporaryDirectory.manager(at: url, kdfIterations: changed ? flow.finalOptions.kdfIterations! : 4000)
        try reader.open(password: changed ? flow.finalPassword : "old-secret")
        defer { reader.close() }
        return try reader.scalar(String.self, "PRAGMA integrity_check")
    }

    /// The rows now in the file, read under the key the flow leaves (or the old one after a refusal).
    private func readIDs(changed: Bool) throws -> Set<Int> {
        let readRows: (Database) throws -> Set<Int> = { db in
            Set(try db.fetchAll("SELECT id FROM ledger").compactMap { $0.value(0, as: Int.self) })
        }
        if !flow.hasSibling && !changed {
            let plain = try Connection(path: url.path, mode: .readOnly)
            defer { plain.close() }
            return try readRows(Database(connection: plain))
        }
        let reader = TemporaryDirectory.manager(at: url, kdfIterations: changed ? flow.finalOptions.kdfIterations! : 4000)
        try reader.open(password: changed ? flow.finalPassword : "old-secret")
        defer { reader.close() }
        if changed && flow == .rekey {
            let old = TemporaryDirectory.manager(at: url)
            #expect(throws: DatabaseManagerError.self) { try old.open(password: "old-secret") }
        }
        return try reader.withDatabase(readRows)
    }
}

/// The stop flag and result of a writer thread.
final class ThreadWriter: @unchecked Sendable {
    // @unchecked: both fields are read and written under `condition`.
    private let condition = NSCondition()
    private var stopping = false
    private var record: LedgerRecord?
    private var wroteAfterChange = false

    var isStopping: Bool { condition.withLock { stopping } }

    func noteWriteAfterChange() {
        condition.withLock {
            wroteAfterChange = true
            condition.broadcast()
        }
    }

    /// Waits until an insert succeeded after the key change, or `timeout` seconds.
    func waitForWriteAfterChange(timeout: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.withLock {
            while !wroteAfterChange, record == nil, condition.wait(until: deadline) {}
        }
    }

    func finish(_ value: LedgerRecord) {
        condition.withLock {
            record = value
            condition.broadcast()
        }
    }

    func stop() -> LedgerRecord {
        condition.withLock {
            stopping = true
            while record == nil { condition.wait() }
            return record!
        }
    }
}

// MARK: - A writer in another process

/// `FaultInjectionHelper ledger-writer` (our library: a manager that, told its file was
/// replaced, opens it again with the password that now opens it) for an encrypted source;
/// `Tests/Interop/ledger_writer.py` (stock SQLite) for a plaintext one. Both append each
/// acknowledged id to `ledger.txt`, `+` marking those after `changed` appeared.
final class LedgerProcess {
    private let process = ChildProcess()
    private let directory: URL
    var processID: Int { Int(process.processIdentifier) }

    convenience init(scene: LedgerScene) throws {
        try self.init(directory: scene.dir.url, database: scene.url, library: scene.flow.hasSibling)
    }

    /// `library`: our helper on `<directory>/ledger.db` (encrypted); otherwise the Python writer on `database`.
    init(directory: URL, database: URL, library: Bool) throws {
        self.directory = directory
        if library {
            process.executableURL = FaultInjection.helperURL
            process.arguments = ["ledger-writer", directory.path]
        } else {
            process.executableURL = try Interop.require(Interop.python, "Python 3 (.venv)")
            process.arguments = [
                Interop.repository.appendingPathComponent("Tests/Interop/ledger_writer.py").path,
                database.path, directory.path,
            ]
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        FaultInjection.waitForReady(output)
    }

    /// Marks the key change as finished (ids written after this are counted as "after").
    func markChanged() { _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("changed").path, contents: nil) }

    /// The passwords the writer opened the file with again after a key change, in order.
    func reopenedWith() -> [String] {
        let text = String(decoding: Fixture.bytes(directory.appendingPathComponent("reopened.txt")), as: UTF8.self)
        return text.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
    }

    /// Waits until the writer has acknowledged a row after ``markChanged()``, or `timeout` seconds.
    func waitForAcknowledgedAfter(timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        let ledger = directory.appendingPathComponent("ledger.txt")
        while Date() < deadline, !String(decoding: Fixture.bytes(ledger), as: UTF8.self).contains("+\n") {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Stops the writer and reads its ledger.
    func stop() throws -> LedgerRecord {
        markChanged()
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("stop").path, contents: nil)
        process.waitUntilExit()
        var record = LedgerRecord()
        let text = String(decoding: Fixture.bytes(directory.appendingPathComponent("ledger.txt")), as: UTF8.self)
        for line in text.split(separator: "\n") {
            let after = line.hasSuffix("+")
            guard let id = Int(after ? line.dropLast() : line) else { continue }
            record.acknowledged.append(id)
            if after { record.acknowledgedAfter += 1 }
        }
        let failed = String(decoding: Fixture.bytes(directory.appendingPathComponent("failed.txt")), as: UTF8.self)
        record.failed = Int(failed.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return record
    }
}
