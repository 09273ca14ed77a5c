import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - The replace window

/// The steps of a replace (settings change, encrypt in place) from its last check to the end
/// (``FaultPause``: `checked`, `journaled`, `linked`, `installed`), in both journal modes. The
/// replacing process is `FaultInjectionHelper` (`settings-ledger`, `encrypt-ledger` on
/// `<dir>/ledger.db`), stopped at an exact step, then killed with SIGKILL or let go on.
///
/// What is guaranteed, and checked here:
/// - a kill -9 at any step leaves, after the next open's recovery, a file that opens under
///   exactly one of the old and the new settings (or is exactly one of plaintext / encrypted)
///   with every committed row — in WAL mode also the rows that were only in the `-wal` — and
///   passes `PRAGMA integrity_check`, with no file of ours left beside it;
/// - a program that opens the old file during the install is found once the copy is renamed
///   in: the old file is put back, the replace is refused naming that program, nothing changed.
///
/// A quick run (``TestDepth``) kills at 2 of the 4 steps per flow and mode, chosen with the run's
/// seed; a full run at all 4.
@Suite("Replace window: kill -9 at each step, and a late opener", .serialized, .ownThread)
struct ReplaceWindowTests {
    static let steps = ["checked", "journaled", "linked", "installed"]

    @Test(
        "kill -9 of the replacing process at each step: exactly one state opens, every row there",
        arguments: ["settings-ledger", "encrypt-ledger"], [false, true])
    func killAtEachStep(flow: String, wal: Bool) throws {
        let salt = UInt64(flow.count * 2 + (wal ? 1 : 0))
        for step in TestDepth.sample(Self.steps, quick: 2, label: "replace window \(flow) wal=\(wal) steps", salt: salt) {
            let dir = TemporaryDirectory()
            let encrypted = flow == "settings-ledger"
            try ReplaceScene.makeLedger(in: dir, encrypted: encrypted, wal: wal)
            let committed = try ReplaceScene.commitRows(1...60, in: dir, encrypted: encrypted, leaveInWAL: wal)
            let helper = try PausedHelper(flow, in: dir, steps: [step])
            let paused = helper.waitForPause()
            helper.kill()
            #expect(paused, "\(flow) never stopped at \(step): \(helper.errorOutput)")
            let found = ReplaceScene.readBack(dir, flow: flow)
            #expect(found.problems == [], "\(flow) wal=\(wal) killed at \(step)")
            #expect(found.ids == committed, "\(flow) wal=\(wal) killed at \(step): \(found.ids.count) of \(committed.count) rows")
            #expect(FileSnapshot(dir.url).leftovers == [], "\(flow) wal=\(wal) killed at \(step)")
            print("replace window \(flow) wal=\(wal) kill at \(step): \(found.state)")
        }
    }

    @Test("a program that opens the old file during the install: it is put back, the replace refused naming it", arguments: [false, true])
    func lateOpenerIsFound(wal: Bool) throws {
        let dir = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: dir, encrypted: true, wal: wal)
        let committed = try ReplaceScene.commitRows(1...20, in: dir, encrypted: true, leaveInWAL: false)
        let helper = try PausedHelper("settings-ledger", in: dir, steps: ["linked"])
        #expect(helper.waitForPause(), "the install never reached its link: \(helper.errorOutput)")
        let before = Fixture.bytes(dir.file("ledger.db"))
        let late = try FileHolder(dir.file("ledger.db"))
        defer { late.stop() }
        helper.resume()
        #expect(helper.finish() != 0)
        #expect(helper.errorOutput.contains("open in another program (process \(late.processID), sleep)"), "\(helper.errorOutput)")
        #expect(Fixture.bytes(dir.file("ledger.db")) == before)
        late.stop()
        let found = ReplaceScene.readBack(dir, flow: "settings-ledger")
        #expect(found.state == "old" && found.problems == [] && found.ids == committed, "\(found)")
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    @Test(
        "another process holds the file open (no lock, or a WAL reader): refused with its pid and name, the file unchanged",
        arguments: [false, true], [false, true])
    func holderIsRefused(wal: Bool, reads: Bool) throws {
        let dir = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: dir, encrypted: false, wal: wal)
        let committed = try ReplaceScene.commitRows(1...20, in: dir, encrypted: false, leaveInWAL: false)
        let before = Fixture.bytes(dir.file("ledger.db"))
        let holderPID: Int
        let holderName: String
        var shell: OpenShell?
        var holder: FileHolder?
        if reads {
            let reader = try OpenShell(dir.file("ledger.db"))
            shell = reader
            holderPID = reader.processID
            holderName = "sqlcipher"
            Thread.sleep(forTimeInterval: 0.2)
        } else {
            let held = try FileHolder(dir.file("ledger.db"))
            holder = held
            holderPID = held.processID
            holderName = "sleep"
        }
        let error = thrownError {
            try DatabaseTools.encryptPlaintextDatabase(
                at: dir.file("ledger.db"), password: "new-secret", configuration: ReplaceScene.configuration(kdf: 4000))
        }
        shell?.close()
        holder?.stop()
        guard case .openElsewhere(_, let pid, let name)? = (error as? DatabaseManagerError)?.kind else {
            Issue.record("expected openElsewhere, got \(String(describing: error))")
            return
        }
        #expect(pid == holderPID)
        #expect(name == holderName)
        #expect(Fixture.bytes(dir.file("ledger.db")) == before)
        #expect(FileSnapshot(dir.url).leftovers == [])
        // Once it is closed, the same call succeeds.
        try DatabaseTools.encryptPlaintextDatabase(
            at: dir.file("ledger.db"), password: "new-secret", configuration: ReplaceScene.configuration(kdf: 4000))
        let found = ReplaceScene.readBack(dir, flow: "encrypt-ledger")
        #expect(found.state == "new" && found.ids == committed, "\(found)")
    }
}

// MARK: - Scene

enum ReplaceScene {
    /// `<dir>/ledger.db` with an empty `ledger` table: encrypted ("old-secret") or plaintext.
    static func makeLedger(in dir: TemporaryDirectory, encrypted: Bool, wal: Bool) throws {
        let script =
            (wal ? "PRAGMA journal_mode = WAL; " : "PRAGMA journal_mode = DELETE; ")
            + "CREATE TABLE ledger(id INTEGER PRIMARY KEY, body TEXT)"
        if encrypted {
            let creator = dir.manager("ledger.db")
            try creator.create(password: "old-secret")
            try creator.executeScript(script)
            creator.close()
        } else {
            let plain = try Connection(path: dir.file("ledger.db").path, mode: .readWriteCreate)
            try plain.executeScript(script)
            plain.close()
        }
    }

    /// A configuration with the tests' cheap KDF (`kdf` iterations).
    static func configuration(kdf: Int) -> DatabaseConfiguration {
        DatabaseConfiguration(cipher: CipherOptions(kdfIterations: kdf, allowsLegacyKDFIterations: true))
    }

    /// Commits the ids to the ledger, one transaction each, and returns them. `leaveInWAL`: by
    /// a process (`sqlite3`-like: our helper's Python writer is not needed) that is killed
    /// afterwards, so the rows are only in the `-wal`, as after an app crash.
    static func commitRows(
        _ ids: ClosedRange<Int>, in dir: TemporaryDirectory, encrypted: Bool, leaveInWAL: Bool
    ) throws -> Set<Int> {
        let connection =
            encrypted
            ? try keyedConnection(dir.file("ledger.db"), password: "old-secret")
            : try Connection(path: dir.file("ledger.db").path, mode: .readWrite)
        try connection.executeScript("PRAGMA wal_autocheckpoint = 0")
        for id in ids { try connection.executeScript("INSERT INTO ledger(id, body) VALUES (\(id), 'row')") }
        if leaveInWAL {
            // What a kill leaves: the -wal with the rows, the file without them.
            let wal = dir.file("ledger.db-wal").path
            let saved = try Data(contentsOf: URL(fileURLWithPath: wal))
            connection.keepWALOnClose()
            connection.close()
            try saved.write(to: URL(fileURLWithPath: wal))
            try? FileManager.default.removeItem(atPath: dir.file("ledger.db-shm").path)
            #expect((FileSystem.size(of: wal) ?? 0) > 0)
        } else {
            connection.close()
        }
        return Set(ids)
    }

    /// What the next open finds after `flow` (it runs recovery): `settings-ledger` — the old
    /// (kdf 4000) or the new (kdf 5000) settings, same password; `encrypt-ledger` — plaintext
    /// or "new-secret".
    static func readBack(_ dir: TemporaryDirectory, flow: String) -> (state: String, ids: Set<Int>, problems: [String]) {
        guard flow == "settings-ledger" else { return readBack(dir, encrypted: false) }
        let old = dir.openResult("ledger.db", password: "old-secret")
        let newManager = TemporaryDirectory.manager(at: dir.file("ledger.db"), kdfIterations: 5000)
        let new = Result { try newManager.open(password: "old-secret") }
        newManager.close()
        do {
            switch (old, new) {
            case ("none", .failure):
                return ("old", try dir.withOpened("ledger.db", password: "old-secret", read), [])
            case (_, .success) where old != "none":
                let manager = TemporaryDirectory.manager(at: dir.file("ledger.db"), kdfIterations: 5000)
                try manager.open(password: "old-secret")
                defer { manager.close() }
                return ("new", try manager.withDatabase(read), [])
            default:
                return ("broken", [], ["old settings: \(old), new settings: \(new)"])
            }
        } catch {
            return ("broken", [], ["\(error)"])
        }
    }

    /// A raw connection keyed with `password` (KDF 4000), as any SQLCipher client would open it.
    static func keyedConnection(_ url: URL, password: String) throws -> Connection {
        let connection = try Connection(path: url.path, mode: .readWrite)
        try Array(password.utf8).withUnsafeBytes { try connection.key($0) }
        try connection.executeScript("PRAGMA kdf_iter = 4000")
        try connection.setBusyTimeout(milliseconds: 10_000)
        return connection
    }

    /// What the next open finds (it runs recovery): the state, the ledger's ids, and problems
    /// (not exactly one of the two keys / forms, a failed integrity check).
    static func readBack(_ dir: TemporaryDirectory, encrypted: Bool) -> (state: String, ids: Set<Int>, problems: [String]) {
        let new = dir.openResult("ledger.db", password: "new-secret")
        let old = encrypted ? dir.openResult("ledger.db", password: "old-secret") : "plaintext"
        do {
            if new == "none", old != "none" {
                return ("new", try dir.withOpened("ledger.db", password: "new-secret", read), [])
            }
            if encrypted, new == "incorrectPasswordOrSettings", old == "none" {
                return ("old", try dir.withOpened("ledger.db", password: "old-secret", read), [])
            }
            if !encrypted, new == "plaintextDatabase" {
                let plain = try Connection(path: dir.file("ledger.db").path, mode: .readWrite)
                defer { plain.close() }
                return ("old", try read(Database(connection: plain)), [])
            }
            return ("broken", [], ["new password: \(new), old password: \(old)"])
        } catch {
            return ("broken", [], ["\(error)"])
        }
    }

    private static func read(_ db: Database) throws -> Set<Int> {
        let check = try db.fetchAll("PRAGMA integrity_check").compactMap { $0.value(0, as: String.self) }
        guard check == ["ok"] else { throw IntegrityFailure(messages: check) }
        return Set(try db.fetchAll("SELECT id FROM ledger").compactMap { $0.value(0, as: Int.self) })
    }

    struct IntegrityFailure: Error { let messages: [String] }

    /// Polls every millisecond, up to `timeout` seconds.
    static func waitUntil(timeout: TimeInterval = 30, _ condition: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition(), Date() < deadline { usleep(1000) }
    }
}

// MARK: - A reader left open

/// The Debian `sqlcipher` shell on a file: it reads the `ledger` table once and keeps the
/// database open until ``close()``.
final class OpenShell {
    private let process = ChildProcess()
    var processID: Int { Int(process.processIdentifier) }
    private let input = Pipe()

    init(_ url: URL) throws {
        process.executableURL = try Interop.require(Interop.sqlcipherShell, "the sqlcipher shell")
        process.arguments = ["-batch", "-init", "/dev/null", url.path]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("SELECT count(*) FROM ledger;\n".utf8))
    }

    /// Ends its input: the shell closes the database and exits.
    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

// MARK: - A replace stopped at a step

/// `FaultInjectionHelper <flow> <dir>` with `SCM_FAULT_PAUSE=<steps>:<dir>/paused`.
final class PausedHelper {
    private let process = ChildProcess()
    private let errors = Pipe()
    private let pauseFile: String

    init(_ flow: String, in dir: TemporaryDirectory, steps: [String]) throws {
        guard let helperURL = FaultInjection.helperURL else { throw FaultInjection.HelperMissing() }
        pauseFile = dir.file("paused").path
        process.executableURL = helperURL
        process.arguments = [flow, dir.url.path]
        var environment = ProcessInfo.processInfo.environment
        environment["SCM_FAULT_PAUSE"] = steps.joined(separator: ",") + ":" + pauseFile
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        FaultInjection.waitForReady(output)
    }

    var isRunning: Bool { process.isRunning }

    /// Waits until the helper stops at its next step (`true`) or exits first (`false`).
    func waitForPause() -> Bool {
        ReplaceScene.waitUntil { FileManager.default.fileExists(atPath: pauseFile) || !process.isRunning }
        return FileManager.default.fileExists(atPath: pauseFile)
    }

    /// Lets it go on from the step it stopped at.
    func resume() { try? FileManager.default.removeItem(atPath: pauseFile) }

    /// SIGKILL, then waits for the exit.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: pauseFile)
    }

    /// Waits for the exit; the exit status.
    func finish() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    var errorOutput: String {
        guard !process.isRunning else { return "" }
        return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
