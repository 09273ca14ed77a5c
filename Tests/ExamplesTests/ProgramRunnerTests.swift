import Foundation
import Testing

@Suite struct ProgramRunnerTests {
    /// Before `send` ignored SIGPIPE, input written after the program had exited killed the
    /// test process (signal 13), which made the suite fail at random.
    @Test func inputSentAfterTheProgramExitedIsDropped() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ProgramRunnerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = try Program.start("cipherdb", ["--no-such-option"], in: folder)
        running.finished.wait()
        running.send(String(repeating: "x", count: 1 << 20))
        running.closeInput()
        #expect(running.process.terminationStatus == 2)
    }
}
