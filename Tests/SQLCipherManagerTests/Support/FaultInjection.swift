import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - FaultInjection

/// Runs `FaultInjectionHelper` (built beside the test bundle) on a copy of a 20,000-row
/// template and kills it with SIGKILL.
enum FaultInjection {
    static let rows = 20_000
    static let extraRows = 500

    /// The run's seed (``TestDepth/seed``: `SCM_TEST_SEED`, or a fresh random one).
    static var seed: UInt64 { TestDepth.seed }

    /// The helper executable: `SCM_FAULT_HELPER`, or `FaultInjectionHelper` next to the test runner.
    static let helperURL: URL? = {
        if let path = ProcessInfo.processInfo.environment["SCM_FAULT_HELPER"] { return URL(fileURLWithPath: path) }
        let directories = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        return directories.map { $0.appendingPathComponent("FaultInjectionHelper") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    // MARK: - Templates (made once)

    /// The two 20,000-row templates: plaintext and encrypted ("old-secret"), both in WAL mode,
    /// both with an empty `extra` table for the rows the rekey helper writes.
    static let templates: TemporaryDirectory = {
        let dir = TemporaryDirectory()
        do {
            try RichDatabase.makePlaintext(at: dir.file("plain.db"), rows: rows, wal: true)
            try RichDatabase.makeEncrypted(in: dir, name: "encrypted.db", rows: rows, wal: true)
            let plain = try Connection(path: dir.file("plain.db").path, mode: .readWrite)
            try plain.executeScript("CREATE TABLE extra(id INTEGER PRIMARY KEY, value INTEGER)")
            plain.close()
            let manager = dir.manager("encrypted.db")
            try manager.open(password: "old-secret")
            try manager.execute("CREATE TABLE extra(id INTEGER PRIMARY KEY, value INTEGER)")
            manager.close()
        } catch {
            Issue.record("cannot build the fault-injection templates: \(error)")
        }
        // A static is never released: remove the directory when the test process exits.
        atexit { try? FileManager.default.removeItem(at: FaultInjection.templates.url) }
        return dir
    }()

    /// Copies a template to `<dir>/test.db`.
    static func install(_ template: String, in dir: TemporaryDirectory) throws {
        try FileManager.default.copyItem(at: templates.file(template), to: dir.file("test.db"))
    }

    // MARK: - Running the helper

    struct Run {
        /// `true` when SIGKILL ended the helper; `false` when it exited by itself first.
        let killed: Bool
        /// From READY to exit.
        let duration: TimeInterval
        let status: Int32
        let errorOutput: String
    }

    /// When to kill the helper, counted from READY.
    enum Kill {
        /// Let it finish.
        case never
        /// After this many seconds.
        case after(TimeInterval)
        /// This many seconds after the file at `path` first contains `text` (polled every 50 µs).
        case afterFileContains(path: String, text: String, delay: TimeInterval)
        /// As soon as the file at `path` holds at least `bytes` bytes (polled every 50 µs).
        case afterFileReaches(path: String, bytes: Int)
        /// No kill: once the file at `path` contains `text`, stop the helper (SIGSTOP), run
        /// `body`, then let it go on (SIGCONT) and finish.
        case pauseWhenFileContains(path: String, text: String, body: () -> Void)
    }

    /// Starts the helper, waits for READY, waits as `kill` says and kills it.
    static func run(_ flow: String, in dir: URL, kill: Kill) throws -> Run {
        guard let helperURL else { throw HelperMissing() }
        let process = ChildProcess()
        process.executableURL = helperURL
        process.arguments = [flow, dir.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        waitForReady(output)
        let start = Date()
        switch kill {
        case .never: break
        case .after(let delay):
            Thread.sleep(forTimeInterval: delay)
            sendKill(process)
        case .afterFileContains(let path, let text, let delay):
            waitUntil(process, fileAt: path, contains: text)
            Thread.sleep(forTimeInterval: delay)
            sendKill(process)
        case .afterFileReaches(let path, let bytes):
            while process.isRunning, (FileSystem.size(of: path) ?? 0) < bytes { usleep(50) }
            sendKill(process)
        case .pauseWhenFileContains(let path, let text, let body):
            waitUntil(process, fileAt: path, contains: text)
            signal(process, SIGSTOP)
            body()
            signal(process, SIGCONT)
        }
        process.waitUntilExit()
        let duration = Date().timeIntervalSince(start)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Run(
            killed: process.terminationReason == .uncaughtSignal, duration: duration,
            status: process.terminationStatus, errorOutput: errorText)
    }

    /// Reads a helper's standard output until it printed READY (or closed it).
    static func waitForReady(_ output: Pipe) {
        var seen = Data()
        while !seen.contains(Array("READY".utf8)) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
    }

    private static func sendKill(_ process: ChildProcess) { signal(process, SIGKILL) }

    private static func signal(_ process: ChildProcess, _ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// Polls every 50 µs until the file contains `text` or the process has exited.
    private static func waitUntil(_ process: ChildProcess, fileAt path: String, contains text: String) {
        while process.isRunning, !(FileManager.default.contents(atPath: path)?.contains(Array(text.utf8)) ?? false) {
            usleep(50)
        }
    }

    struct HelperMissing: Error, CustomStringConvertible {
        var description: String {
            "FaultInjectionHelper was not found beside the test runner; build it with `swift build --build-tests`"
        }
    }
}

extension Data {
    fileprivate func contains(_ bytes: [UInt8]) -> Bool { range(of: Data(bytes)) != nil }
}
