import CSQLCipher
import Foundation

// MARK: - Version 1 of the app

/// What the app's first version did: its notes in a plain SQLite file, no key at all (seed
/// 003's "裸奔" store). It talks to SQLite directly, as that version did; no key is given, so
/// SQLCipher writes an ordinary plaintext database.
enum OldVersion {
    static func writeNotes(at url: URL, _ notes: [String]) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw DemoFailure("version 1 could not create \(url.path)")
        }
        defer { sqlite3_close(handle) }
        let values = notes.map { "('" + $0.replacingOccurrences(of: "'", with: "''") + "')" }.joined(separator: ", ")
        let script = "CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT NOT NULL); INSERT INTO note(body) VALUES \(values);"
        guard sqlite3_exec(handle, script, nil, nil, nil) == SQLITE_OK else {
            throw DemoFailure("version 1 could not write its notes: \(String(cString: sqlite3_errmsg(handle)))")
        }
    }
}

struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
