import Foundation
import Testing

@Suite struct ProgramRunnerTests {
    /// Before `send` ignored SIGPIPE, input written after the program had exited killed the
    /// test process (signal 13), which made the suite fail at random.
    @Test func inputSentAfterTheProgramExitedIsDropped() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ProgramRunnerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let running = try Program.start("cipherdb", ["--no-such-option"], in: directory)
        running.finished.wait()
        running.send(String(repeating: "x", count: 1 << 20))
        running.closeInput()
        #expect(running.process.terminationStatus == 2)
    }
}
