import Foundation
import SQLCipherManager

// MARK: - Version 1 of the app

/// What the app's first version left behind: its notes in a plain SQLite file, no key at all.
/// The package writes no plaintext database of its own, so this one is made as a user would
/// make one with the public API: notes written to an encrypted scratch file, then
/// `decrypt(to:)` to the plaintext copy, and the scratch folder removed.
enum OldVersion {
    static func writeNotes(at url: URL, _ notes: [String]) throws {
        let scratch = url.deletingLastPathComponent().appendingPathComponent(".version-1-scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let manager = DatabaseManager(url: scratch.appendingPathComponent("notes.db"))
        try manager.create(password: "version 1 had no password")
        try manager.writeSync { db in
            try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
            for note in notes { try db.execute("INSERT INTO note(body) VALUES (?)", note) }
        }
        try manager.decrypt(to: url)
        manager.close()
    }
}

struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
