import Foundation

/// A fresh directory per test, removed when the value is released.
final class ScratchDirectory: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ExamplesTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    func bytes(_ name: String) -> Data { FileManager.default.contents(atPath: path(name)) ?? Data() }

    /// `true` when the file starts with SQLite's plaintext header.
    func isPlaintextSQLite(_ name: String) -> Bool {
        bytes(name).prefix(16) == Data("SQLite format 3".utf8 + [0])
    }

    /// `true` when `text` appears anywhere in the file's bytes.
    func fileContains(_ name: String, _ text: String) -> Bool {
        bytes(name).range(of: Data(text.utf8)) != nil
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    /// Writes a password file: `bytes` with mode `mode` (cipherdb refuses one others can read).
    func writeSecret(_ name: String, _ bytes: Data, mode: Int = 0o600) throws {
        try bytes.write(to: url.appendingPathComponent(name))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path(name))
    }
}
