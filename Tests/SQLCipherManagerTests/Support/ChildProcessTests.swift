import Foundation
import Synchronization
import TestSupport
import Testing

/// ``ChildProcess``: a child inherits no descriptor this process opens while it starts, and
/// reports its exit as `Process` does.
@Suite("Children the tests start", .ownThread)
struct ChildProcessTests {
    /// Foundation's `Process` leaked a file being copied into 9 to 10 of 300 such children
    /// (with 400 or 1,000 descriptors open, as in a full test run; none with 50).
    @Test("a file copied by another thread while children start is never inherited")
    func nothingIsInherited() throws {
        let dir = TemporaryDirectory()
        try Data(repeating: 7, count: 4 << 20).write(to: dir.file("source"))
        let padding = (0..<400).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        defer { padding.forEach { _ = close($0) } }
        let stop = Atomic(false)
        let copiers = DispatchGroup()
        for copier in 0..<2 {
            DispatchQueue.global().async(group: copiers) {
                var round = 0
                while !stop.load(ordering: .relaxed) {
                    let copy = dir.file("copy-\(copier)-\(round % 4)")
                    try? FileManager.default.removeItem(at: copy)
                    try? FileManager.default.copyItem(at: dir.file("source"), to: copy)
                    round += 1
                }
            }
        }
        defer {
            stop.store(true, ordering: .relaxed)
            copiers.wait()
        }
        var inherited: [String] = []
        for _ in 0..<300 {
            let listing = try run("/bin/sh", ["-c", "for f in /proc/$$/fd/*; do readlink $f; done"])
            inherited += listing.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(dir.url.path) }
        }
        #expect(inherited == [])
    }

    @Test("exit status, signal, environment, directory and standard input as Process reports them")
    func reportsLikeProcess() throws {
        let dir = TemporaryDirectory()
        let exited = try run("/bin/sh", ["-c", "read line; echo \"$line $CHILD_TEST $(pwd)\"; exit 3"], input: "typed\n", in: dir.url)
        #expect(exited.status == 3 && exited.reason == .exit)
        #expect(exited.output == "typed yes \(dir.url.path)\n")
        let killed = try run("/bin/sh", ["-c", "kill -9 $$"])
        #expect(killed.status == SIGKILL && killed.reason == .uncaughtSignal)
        #expect(throws: ChildProcessError.self) { try run("/nonexistent/program", []) }
    }

    private func run(
        _ program: String, _ arguments: [String], input: String = "", in directory: URL? = nil
    ) throws -> (status: Int32, reason: Process.TerminationReason, output: String) {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: program)
        child.arguments = arguments
        child.environment = ["CHILD_TEST": "yes", "PATH": "/usr/bin:/bin"]
        child.currentDirectoryURL = directory
        let (stdin, stdout) = (Pipe(), Pipe())
        (child.standardInput, child.standardOutput, child.standardError) = (stdin, stdout, FileHandle.nullDevice)
        try child.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        #expect(!child.isRunning)
        return (child.terminationStatus, child.terminationReason, String(decoding: output, as: UTF8.self))
    }
}
