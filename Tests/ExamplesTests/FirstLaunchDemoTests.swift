import Foundation
import TestSupport
import Testing

/// Runs the built FirstLaunchDemo: an app's old plaintext store encrypted on the new version's
/// first launch, the key in a 0600 file, never printed.
@Suite(.ownThread) struct FirstLaunchDemoTests {
    @Test func theStoryRunsEndToEnd() throws {
        let directory = try ScratchDirectory()
        let result = try Program.run("FirstLaunchDemo", [directory.url.path], in: directory.url)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.stdout
        #expect(lines.contains("wrote 3 notes; notes.db is plaintext SQLite"))
        #expect(lines.contains("first launch: encryptedPlaintextWithNewKey; 3 notes readable; notes.db is encrypted"))
        #expect(lines.contains("(mode 600, 32 random bytes, never printed)"))
        #expect(lines.contains("second launch: openedExisting; 3 notes readable"))
        #expect(lines.contains("refused: key 'notes-db' unavailable; notes.db untouched, no new key made"))
        #expect(lines.contains("after chmod 600: openedExisting; 3 notes readable"))
        #expect(!directory.isPlaintextSQLite("notes.db"))
        #expect(!directory.fileContains("notes.db", "call Ann"))
        let key = directory.bytes("keys/notes-db")
        #expect(key.count == 32)
        let hex = key.map { String(format: "%02x", $0) }.joined()
        #expect(!result.output.lowercased().contains(hex))
        #expect(directory.bytes("notes.db").range(of: key) == nil)
    }
}
