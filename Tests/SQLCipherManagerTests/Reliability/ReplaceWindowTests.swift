import Foundation
import Testing

@testable import SQLCipherManager

// MARK: - The replace window

/// The moments of a replace (rekey, encrypt in place) between its last check and the end,
/// with another program on the file. The replacing process is `FaultInjectionHelper`
/// (`rekey-ledger`, `encrypt-ledger` on `<dir>/ledger.db`), stopped at an exact step by
/// ``FaultPause`` (`checked`, `retired`, `installed`), then killed with SIGKILL or let go on.
///
/// What is guaranteed, and checked here:
/// - a kill -9 at any step, with a writer in another process (our library, which opens the
///   file again when told it was replaced, or stock SQLite, which keeps its connection): every
///   insert that returned success is in the file after the next open's recovery, the file
///   opens under exactly one key (or is exactly one of plaintext / encrypted) and passes
///   `PRAGMA integrity_check`;
/// - WAL: a program that opens the file while the replace waits at its last check commits
///   nothing into the old file, and closing it while the replace is still running does not
///   take the new file's `-wal` (rows written to the new file meanwhile stay there); the
///   replace waits up to its busy timeout for such programs to close.
@Suite("Replace window: kill -9 and late openers between the last check and the install", .serialized)
struct ReplaceWindowTests {
    @Test(
        "kill -9 of the replacing process at each step while another process writes (rollback journal)",
        arguments: ["rekey-ledger", "encrypt-ledger"], ["checked", "retired", "installed"])
    func killWithWriterOpen(flow: String, step: String) throws {
        let dir = TemporaryDirectory()
        let encrypted = flow == "rekey-ledger"
        try ReplaceScene.makeLedger(in: dir, encrypted: encrypted, wal: false)
        let writer = try LedgerProcess(folder: dir.url, database: dir.file("ledger.db"), library: encrypted)
        Thread.sleep(forTimeInterval: 0.05)
        let helper = try PausedHelper(flow, in: dir, steps: [step])
        let paused = helper.waitForPause()
        helper.kill()
        #expect(paused, "the replace never stopped at \(step): \(helper.errorOutput)")
        // The writer goes on: on the old file, or (our library) on the file it opens again.
        Thread.sleep(forTimeInterval: 0.3)
        let ledger = try writer.stop()
        let found = ReplaceScene.readBack(dir, encrypted: encrypted)
        let missing = ledger.acknowledged.filter { !found.ids.contains($0) }
        #expect(found.problems == [], "\(flow) killed at \(step)")
        #expect(missing.isEmpty, "\(flow) killed at \(step): \(missing.count) of \(ledger.acknowledged.count) acknowledged rows missing")
        #expect(FileSnapshot(dir.url).leftovers == [])
        print("replace window \(flow) kill at \(step): \(found.state), \(ledger.acknowledged.count) acknowledged, \(ledger.failed) refused")
    }

    @Test(
        "WAL: a program that opens the file while the replace waits at its last check; then the replace finishes or is killed",
        arguments: ["finish", "retired", "installed"])
    func lateOpenerInWAL(ending: String) throws {
        let dir = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: dir, encrypted: false, wal: true)
        let helper = try PausedHelper("encrypt-ledger", in: dir, steps: ending == "finish" ? ["checked"] : ["checked", ending])
        #expect(helper.waitForPause(), "the replace never stopped at its last check: \(helper.errorOutput)")
        // Stock SQLite opens the file now and tries to write: it waits for the write lock. The
        // sqlcipher shell (SQLite 3.15.2, whose close deletes the `-wal` at the path even when
        // its own file was replaced) opens it and reads.
        let late = try LedgerProcess(folder: dir.url, database: dir.file("ledger.db"), library: false)
        let reader = try OpenShell(dir.file("ledger.db"))
        Thread.sleep(forTimeInterval: 0.3)
        let original = FileSystem.identity(of: dir.file("ledger.db").path)
        helper.resume()
        var newRows: [Int] = []
        var writerOfNewFile: Connection?
        if ending == "finish" {
            // Rows written to the new file while the late opener is still open on the old one.
            ReplaceScene.waitUntil { FileSystem.identity(of: dir.file("ledger.db").path) != original || !helper.isRunning }
            writerOfNewFile = try ReplaceScene.keyedConnection(dir.file("ledger.db"), password: "new-secret")
            try writerOfNewFile?.executeScript("PRAGMA wal_autocheckpoint = 0")
            for id in 1...20 {
                try writerOfNewFile?.executeScript("INSERT INTO ledger(id, body) VALUES (\(id), 'new file')")
                newRows.append(id)
            }
            // The late opener closes after the replace has finished its work (up to 2 s; a
            // replace holds the old file while a late opener is open, up to its busy timeout, 5 s).
            ReplaceScene.waitUntil(timeout: 2) { !helper.isRunning }
        } else {
            #expect(helper.waitForPause(), "the replace never stopped at \(ending): \(helper.errorOutput)")
            helper.kill()
            Thread.sleep(forTimeInterval: 0.3)
        }
        // The shell closes last: a close deletes the `-wal` at the path only when no other
        // connection has the old file open.
        let ledger = try late.stop()
        reader.close()
        let status = helper.finish()
        if ending == "finish" { #expect(status == 0, "\(helper.errorOutput)") }
        let found = ReplaceScene.readBack(dir, encrypted: false)
        writerOfNewFile?.close()
        let missing = (ledger.acknowledged + newRows).filter { !found.ids.contains($0) }
        #expect(found.problems == [], "ending \(ending)")
        #expect(missing.isEmpty, "ending \(ending): \(missing.count) acknowledged rows missing: \(missing.prefix(5))")
        #expect(FileSnapshot(dir.url).leftovers == [])
        print(
            "replace window WAL late opener, \(ending): \(found.state), \(ledger.acknowledged.count) acknowledged, \(ledger.failed) refused"
        )
    }
}

// MARK: - Failures after the retire

extension ReplaceWindowTests {
    /// `<dir>/ledger.db` ("old-secret") with rows 1...50, and a rekey stopped once it retired it.
    private func retiredRekey(wal: Bool) throws -> (TemporaryDirectory, PausedHelper) {
        let dir = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: dir, encrypted: true, wal: wal)
        try dir.withOpened("ledger.db", password: "old-secret") { db in
            for id in 1...50 { try db.execute("INSERT INTO ledger(id, body) VALUES (?, 'kept')", id) }
        }
        let helper = try PausedHelper("rekey-ledger", in: dir, steps: ["retired"])
        #expect(helper.waitForPause(), "the rekey never retired the file: \(helper.errorOutput)")
        return (dir, helper)
    }

    @Test("the rename fails after the retire: the old file is un-retired and stays the database", arguments: [false, true])
    func renameFailsAfterRetire(wal: Bool) throws {
        let (dir, helper) = try retiredRekey(wal: wal)
        // A folder in the copy's place: renaming it over the database fails (ENOTDIR).
        let copy = dir.file("ledger.db.scm-rekey")
        try FileManager.default.removeItem(at: copy)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
        helper.resume()
        #expect(helper.finish() != 0)
        try FileManager.default.removeItem(at: copy)
        let found = ReplaceScene.readBack(dir, encrypted: true)
        #expect(found.state == "old" && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...50))
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    @Test("a manager of another process on the retired file: operationInProgress until the copy is in, then databaseReplaced")
    func managerOnRetiredFile() throws {
        let dir = TemporaryDirectory()
        try ReplaceScene.makeLedger(in: dir, encrypted: true, wal: false)
        // The replace holds the file's EXCLUSIVE lock: the manager's statement waits its busy timeout first.
        let manager = dir.manager("ledger.db") { $0.busyTimeout = .milliseconds(200) }
        try manager.open(password: "old-secret")
        let helper = try PausedHelper("rekey-ledger", in: dir, steps: ["retired"])
        #expect(helper.waitForPause(), "the rekey never retired the file: \(helper.errorOutput)")
        #expect(thrownCase { try manager.execute("INSERT INTO ledger(id, body) VALUES (1, 'stale')") } == "operationInProgress")
        #expect(manager.isOpen)
        helper.resume()
        #expect(helper.finish() == 0, "\(helper.errorOutput)")
        #expect(thrownCase { try manager.execute("INSERT INTO ledger(id, body) VALUES (2, 'stale')") } == "databaseReplaced")
        try manager.open(password: "new-secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM ledger") == 0)
        manager.close()
    }

    /// Rollback-journal mode: the original header, kept in the journal, is written back. (A WAL
    /// file is retired by a schema entry, already checkpointed into the file by then: without
    /// its key, recovery cannot take it out and reports `recoveryFailed`, see README.)
    @Test("killed once the old file is retired, the copy then lost: recovery un-retires the old file")
    func retiredFileWithoutCopy() throws {
        let (dir, helper) = try retiredRekey(wal: false)
        helper.kill()
        try FileManager.default.removeItem(at: dir.file("ledger.db.scm-rekey"))
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file("ledger.db")) == .discardedUnprovenCopy)
        let found = ReplaceScene.readBack(dir, encrypted: true)
        #expect(found.state == "old" && found.problems == [], "\(found)")
        #expect(found.ids == Set(1...50))
        #expect(FileSnapshot(dir.url).leftovers == [])
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
    private let process = Process()
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
    private let process = Process()
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
