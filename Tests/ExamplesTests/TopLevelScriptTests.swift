import Foundation
import TestSupport
import Testing

/// Runs the built TopLevelScript: a `main.swift` whose top-level code awaits the manager's
/// `write`, `transaction` and `read`. That it builds at all is half the proof.
@Suite(.ownThread) struct TopLevelScriptTests {
    @Test("top-level code awaits write, transaction and read, and they run")
    func topLevelAwaitRuns() throws {
        let directory = try ScratchDirectory()
        let result = try Program.run("TopLevelScript", [directory.url.path], in: directory.url)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("notes: Hello, again"), "\(result.output)")
        #expect(!directory.isPlaintextSQLite("notes.db"))
    }
}
