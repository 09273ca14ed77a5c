import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a built program on a pseudo-terminal, as a person at a terminal would: stdin, stdout
/// and stderr are the terminal, and everything the terminal shows (echo included) is captured.
final class PseudoTerminalSession: @unchecked Sendable {
    // @unchecked: `screen` is written by the reader thread and read by the test, under `lock`.
    private let master: Int32
    private let process = ChildProcess()
    private let lock = NSLock()
    private var screen = Data()
    private let readerDone = DispatchSemaphore(value: 0)

    init(_ name: String, _ arguments: [String], in directory: URL) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw RunnerError("openpty failed: errno \(errno)") }
        self.master = master
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.executableURL = try Program.url(name)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        (process.standardInput, process.standardOutput, process.standardError) = (terminal, terminal, terminal)
        try process.run()
        try terminal.close()
        Thread.detachNewThread { [self] in readUntilClosed() }
    }

    deinit { close(master) }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            lock.withLock { screen.append(contentsOf: buffer[0..<count]) }
        }
        readerDone.signal()
    }

    /// What the terminal has shown so far.
    var shown: String { lock.withLock { String(decoding: screen, as: UTF8.self) } }

    /// `true` while what is typed is shown: the terminal echoes it, or the program reads raw
    /// keys (no canonical input: a line editor, which draws them itself). `false` at a password
    /// prompt: canonical input with echo off.
    var echoes: Bool { terminalEchoes || readsKeys }

    /// `true` while the terminal itself echoes (termios `ECHO`).
    var terminalEchoes: Bool { localFlags.map { $0 & tcflag_t(ECHO) != 0 } ?? false }

    /// `true` while the program reads key by key (termios `ICANON` off): its line editor runs.
    var readsKeys: Bool { localFlags.map { $0 & tcflag_t(ICANON) == 0 } ?? false }

    private var localFlags: tcflag_t? {
        var settings = termios()
        return tcgetattr(master, &settings) == 0 ? settings.c_lflag : nil
    }

    /// Waits until the terminal shows `text` once more and its echo is `echo`, then types
    /// `line` and (unless `enter` is `false`) Enter.
    func type(_ line: String, after text: String, echo: Bool, enter: Bool = true, timeout: Double = 30) throws {
        try waitFor(text, echo: echo, timeout: timeout)
        send(line + (enter ? "\n" : ""))
    }

    /// Waits until the terminal has shown `text` (anywhere, any number of times).
    func waitForText(_ text: String, timeout: Double = 30) throws {
        try poll(
            timeout: timeout, isRunning: { process.isRunning }, until: { shown.contains(text) },
            failure: { RunnerError("the terminal never showed '\(text)':\n\(shown)") })
    }

    /// Writes `bytes` to the terminal as typed keys, at once (Ctrl-D is `"\u{04}"`, the left
    /// arrow `"\u{1B}[D"`).
    func send(_ bytes: String) {
        _ = bytes.withCString { write(master, $0, strlen($0)) }
    }

    /// Sends SIGINT, as Ctrl-C does (the program is not in the terminal's foreground process
    /// group, so typing ^C would not reach it), once the terminal shows `text` with echo `echo`.
    func interrupt(after text: String, echo: Bool) throws {
        try waitFor(text, echo: echo, timeout: 30)
        process.interrupt()
    }

    private func waitFor(_ text: String, echo: Bool, timeout: Double) throws {
        try poll(
            timeout: timeout, isRunning: { process.isRunning },
            until: { shown.components(separatedBy: text).count - 1 > typedAfter(text) && echoes == echo },
            failure: { RunnerError("the terminal never showed '\(text)' with echo \(echo ? "on" : "off"):\n\(shown)") })
        prompts[text, default: 0] += 1
    }

    /// How many times each prompt has been answered, so the next wait is for a new one.
    private var prompts: [String: Int] = [:]
    private func typedAfter(_ text: String) -> Int { prompts[text, default: 0] }

    /// Waits for the exit and returns the status.
    func wait(timeout: Double = 60) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw RunnerError("timed out:\n\(shown)")
            }
            usleep(10_000)
        }
        _ = readerDone.wait(timeout: .now() + 5)
        return process.terminationStatus
    }
}
