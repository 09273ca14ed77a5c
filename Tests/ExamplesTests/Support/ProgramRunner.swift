import Foundation
import TestSupport

/// What a finished program did.
struct ProgramResult {
    let status: Int32
    let stdout: String
    let stderr: String
    var output: String { stdout + stderr }
}

/// Runs the built `LoginDemo` and `cipherdb` executables: stdin is a pipe, stdout and stderr
/// go to files (so neither can fill a pipe and block), and a run that hangs is killed.
enum Program {
    /// The build products directory: the test bundle is built there, beside the executables.
    /// `EXAMPLES_BIN_DIR` overrides it.
    static let binDirectory: URL = {
        if let dir = ProcessInfo.processInfo.environment["EXAMPLES_BIN_DIR"] {
            return URL(fileURLWithPath: dir, isDirectory: true)
        }
        let runner = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var directory = runner.deletingLastPathComponent()
        // On macOS the runner is inside `….xctest/Contents/MacOS`.
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory
    }()

    static func url(_ name: String) throws -> URL {
        let url = binDirectory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw RunnerError("\(url.path) is not built: run `swift build --build-tests` first (or set EXAMPLES_BIN_DIR)")
        }
        return url
    }

    /// Starts `name` in `directory` with `arguments`; the returned handle feeds stdin and waits.
    static func start(
        _ name: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws -> RunningProgram {
        let process = ChildProcess()
        process.executableURL = try url(name)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let id = UUID().uuidString
        let out = directory.appendingPathComponent(".out-\(id)")
        let err = directory.appendingPathComponent(".err-\(id)")
        for file in [out, err] {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw RunnerError("cannot create \(file.path)")
            }
        }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let running = RunningProgram(process: process, input: input, stdoutFile: out, stderrFile: err)
        process.terminationHandler = { _ in running.finished.signal() }
        try process.run()
        return running
    }

    /// Runs `name` to completion with `stdin` as its whole input.
    static func run(
        _ name: String, _ arguments: [String], stdin: String = "", in directory: URL,
        environment: [String: String] = [:]
    ) throws -> ProgramResult {
        let running = try start(name, arguments, in: directory, environment: environment)
        running.send(stdin)
        running.closeInput()
        return try running.wait()
    }
}

extension Program {
    /// Runs a bash command line in `directory` with `$CIPHERDB` set to the built cipherdb (for what
    /// a `Process` cannot pass: `<(…)`, arguments that are not UTF-8). Returns the status and
    /// stdout + stderr.
    static func runBash(_ command: String, in directory: URL, environment: [String: String] = [:]) throws -> (Int32, String) {
        let bash = ChildProcess()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", command]
        bash.currentDirectoryURL = directory
        bash.environment = environment.merging(["CIPHERDB": try url("cipherdb").path]) { $1 }
        let output = Pipe()
        bash.standardOutput = output
        bash.standardError = output
        try bash.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        return (bash.terminationStatus, text)
    }
}

/// A started program.
final class RunningProgram: @unchecked Sendable {
    let process: ChildProcess
    let input: Pipe
    let stdoutFile: URL
    let stderrFile: URL
    let finished = DispatchSemaphore(value: 0)

    init(process: ChildProcess, input: Pipe, stdoutFile: URL, stderrFile: URL) {
        self.process = process
        self.input = input
        self.stdoutFile = stdoutFile
        self.stderrFile = stderrFile
    }

    /// Writes to the program's standard input. A program may exit before it reads it all (a
    /// usage error, say): the write then fails with EPIPE and is dropped, instead of SIGPIPE
    /// killing the whole test process.
    func send(_ text: String) {
        send(bytes: Data(text.utf8))
    }

    /// Writes raw bytes (for example bytes that are not UTF-8) to the program's standard input.
    func send(bytes: Data) {
        _ = Self.ignoreBrokenPipes
        try? input.fileHandleForWriting.write(contentsOf: bytes)
    }

    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// The output so far.
    var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }

    /// Waits until stdout contains `text` (polling), or throws after `timeout` seconds.
    func waitForOutput(_ text: String, timeout: Double = 30) throws {
        try poll(
            timeout: timeout, interval: 0.02, isRunning: { process.isRunning }, until: { stdout.contains(text) },
            failure: { RunnerError("never printed '\(text)'; output so far:\n\(stdout)") })
    }

    /// Waits for the exit (killing the program after `timeout` seconds) and collects its output.
    func wait(timeout: Double = 60) throws -> ProgramResult {
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw RunnerError("timed out after \(timeout) s; output so far:\n\(stdout)")
        }
        let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
        return ProgramResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

struct RunnerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
