// swift-format-ignore-file
// (These samples are README.md's own text, compared with it line by line: not reformatted.)
import Foundation
import Testing
@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The "Where the key lives" samples of the KeysAndKeySlots article, compiled and run here; the
/// test fails when the article's code blocks and these bodies differ.
@Suite("README: Where the key lives")
struct ReadmeKeySamplesTests {
    @Test func theSamplesRunAndMatchTheREADME() throws {
        let dir = TemporaryDirectory()
        let appSupport = dir.url
        try firstLaunchSample(appSupport: appSupport)
        let manager = DatabaseManager(url: appSupport.appendingPathComponent("notes.db"))
        try manager.openOrCreate(keyStore: FileKeyStore(directory: appSupport.appendingPathComponent("keys")), identifier: "notes-db")
        manager.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o644],
                                              ofItemAtPath: appSupport.appendingPathComponent("keys/notes-db").path)
        try unavailableSample(appSupport: appSupport)

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(
            contentsOf: root.appendingPathComponent("Sources/SQLCipherManager/SQLCipherManager.docc/KeysAndKeySlots.md"), encoding: .utf8)
        for sample in try Self.samples() {
            #expect(readme.contains(sample), "the KeysAndKeySlots article lacks:\n\(sample)")
        }
    }

    private func firstLaunchSample(appSupport: URL) throws {
        // README begin
        let keys = FileKeyStore(directory: appSupport.appendingPathComponent("keys"))
        let manager = DatabaseManager(url: appSupport.appendingPathComponent("notes.db"))
        switch try manager.openOrCreate(keyStore: keys, identifier: "notes-db") {
        case .createdWithNewKey, .encryptedPlaintextWithNewKey:
            print("New key: back up \(try keys.fileURL(identifier: "notes-db").path)")
        case .openedExisting, .resumedCreate, .resumedEncryption:
            break
        }
        // README end
        #expect(manager.isOpen)
        manager.close()
    }

    private func unavailableSample(appSupport: URL) throws {
        let keys = FileKeyStore(directory: appSupport.appendingPathComponent("keys"))
        let manager = DatabaseManager(url: appSupport.appendingPathComponent("notes.db"))
        var reported = false
        // README begin
        do {
            try manager.openOrCreate(keyStore: keys, identifier: "notes-db")
        } catch let error as DatabaseManagerError where error.code == .keyUnavailable {
            print("Key \(error.keyIdentifier ?? "") is unavailable; unlock the keyring or restore the key.")
        // README end
            reported = true
        }
        #expect(reported)
        #expect(!manager.isOpen)
    }

    /// The lines between `// README begin` and `// README end` in the calling file, de-indented by
    /// eight spaces, each block closed with the `}` the README shows.
    static func samples(in file: String = #filePath) throws -> [String] {
        let source = try String(contentsOfFile: file, encoding: .utf8)
        return source.components(separatedBy: "// README begin\n").dropFirst().map { chunk in
            let body = chunk.components(separatedBy: "        // README end")[0]
            return body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("        ") ? String(line.dropFirst(8)) : String(line)
            }.joined(separator: "\n")
        }
    }
}
