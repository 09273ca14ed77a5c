// swift-format-ignore-file
// (These samples are README.md's own text, compared with it line by line: not reformatted.)
import Foundation
import Testing
@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The "Key slots" sample of the KeysAndKeySlots article, compiled and run here; the test fails
/// when the article's code block and this body differ.
@Suite("README: Key slots")
struct ReadmeKeySlotSamplesTests {
    @Test func theSampleRunsAndMatchesTheREADME() throws {
        let dir = TemporaryDirectory()
        try keySlotSample(directory: dir.url)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(
            contentsOf: root.appendingPathComponent("Sources/SQLCipherManager/SQLCipherManager.docc/KeysAndKeySlots.md"), encoding: .utf8)
        for sample in try ReadmeKeySamplesTests.samples() {
            #expect(readme.contains(sample), "the KeysAndKeySlots article lacks:\n\(sample)")
        }
    }

    private func keySlotSample(directory: URL) throws {
        // README begin
        let manager = DatabaseManager(url: directory.appendingPathComponent("vault.db"))
        try manager.create(.password("first password"), keySlots: true)
        try manager.keySlots.add(password: "second password", label: "laptop")
        let recovery = try manager.keySlots.addRecoveryKey()
        print("Write this down: \(recovery.text)")
        manager.close()

        try manager.keySlots.change(password: "first password", to: "new password")
        try manager.open(password: "new password")
        for slot in try manager.keySlots.list() { print(slot) }
        // README end
        #expect(try manager.keySlots.list().map(\.kind) == [.password, .password, .recovery])
        manager.close()
        try manager.open(password: recovery.text)
        manager.close()
    }
}
