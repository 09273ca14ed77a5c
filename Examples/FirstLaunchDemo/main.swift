import Foundation
import SQLCipherManager

// The first launch of an encrypting update, on a terminal: an app whose version 1 kept its notes in plaintext, and whose
// version 2 adds encryption with a random key kept outside the code.
//
//   FirstLaunchDemo [DIRECTORY]    (default: a new temporary directory)
//
// 1. Version 1 writes three notes to DIRECTORY/notes.db, in plaintext.
// 2. Version 2's first launch: openOrCreate generates a key, stores it in DIRECTORY/keys (0600)
//    FIRST, then encrypts notes.db in place and opens it.
// 3. Version 2's second launch opens it with the stored key.
// 4. The key file becomes readable by others: the launch refuses it (keyUnavailable), touches
//    nothing and makes no new key. The key bytes are never printed.

let directory =
    CommandLine.arguments.count > 1
    ? URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
    : FileManager.default.temporaryDirectory.appendingPathComponent("FirstLaunchDemo-\(UUID().uuidString)")
let database = directory.appendingPathComponent("notes.db")
let keys = FileKeyStore(directory: directory.appendingPathComponent("keys"))

func say(_ line: String) { print(line) }

/// "plaintext SQLite" or "encrypted", from the file's first 16 bytes.
func header(_ url: URL) -> String {
    let bytes = (try? FileHandle(forReadingFrom: url).read(upToCount: 16)) ?? nil
    return bytes == Data("SQLite format 3".utf8 + [0]) ? "plaintext SQLite (anyone can read it)" : "encrypted (no SQLite header)"
}

/// Version 2 of the app: every launch is this call.
func launchVersion2(_ label: String) throws {
    let manager = DatabaseManager(url: database)
    let outcome = try manager.openOrCreate(keyStore: keys, identifier: "notes-db")
    defer { manager.close() }
    let count = try manager.readSync { db in try db.scalar(Int.self, "SELECT count(*) FROM note") } ?? 0
    say("\(label): \(outcome.rawValue); \(count) notes readable; notes.db is \(header(database))")
}

do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    say("== Version 1 (no encryption)")
    try OldVersion.writeNotes(at: database, ["buy milk", "call Ann", "the key is not in the code"])
    say("wrote 3 notes; notes.db is \(header(database))")

    say("== Version 2, first launch")
    try launchVersion2("first launch")
    let keyFile = try keys.fileURL(identifier: "notes-db")
    let mode = (try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int) ?? 0
    say("the key lives in \(keyFile.path) (mode \(String(mode, radix: 8)), 32 random bytes, never printed)")

    say("== Version 2, second launch")
    try launchVersion2("second launch")

    say("== Version 2, with the key file readable by others")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
    do {
        try launchVersion2("launch")
    } catch DatabaseManagerError.keyUnavailable(let identifier, _) {
        say("refused: key '\(identifier)' unavailable; notes.db untouched, no new key made")
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
    try launchVersion2("after chmod 600")
    say("Back up \(keyFile.lastPathComponent) apart from notes.db: without it the notes are gone.")
} catch {
    FileHandle.standardError.write(Data("FirstLaunchDemo: \(error)\n".utf8))
    exit(1)
}
