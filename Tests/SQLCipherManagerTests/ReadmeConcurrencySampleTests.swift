// swift-format-ignore-file
// (These samples are README.md's own text, compared with it line by line: not reformatted.)
import Foundation
import SQLCipherManager
import Testing

/// The README's "Concurrency" samples, run as written (public API only).
@Suite("README: the concurrency samples")
struct ReadmeConcurrencySampleTests {
    @Test func theConcurrencySamplesReadBesideTheWriterAndFromAsyncCode() async throws {
        let dir = TemporaryDirectory()
        let manager = try Self.syncSample(url: dir.file("notes.db"), password: "correct horse")
        // README begin
        let total = try await manager.read { db in       // on the manager's threads, never the cooperative
            try db.scalar(Int.self, "SELECT count(*) FROM note")   // pool's; interrupted if the Task is cancelled
        }
        try await manager.write { db in try db.execute("DELETE FROM note") }
        // README end
        #expect(total == 1)
        #expect(try await manager.read { try $0.scalar(Int.self, "SELECT count(*) FROM note") } == 0)
        manager.close()
    }

    private static func syncSample(url: URL, password: String) throws -> DatabaseManager {
        // README begin
        var configuration = DatabaseConfiguration()
        configuration.journalMode = .wal                 // readers beside the one writer
        let manager = DatabaseManager(url: url, configuration: configuration)
        try manager.create(password: password)
        try manager.writeSync { db in                    // BEGIN IMMEDIATE … COMMIT, on the writer
            try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
            try db.execute("INSERT INTO note(title) VALUES (?)", "Hello")
        }
        let count = try manager.readSync { db in         // one snapshot, on a pooled reader:
            try db.scalar(Int.self, "SELECT count(*) FROM note")   // never waits for a write
        }
        // README end
        #expect(count == 1)
        return manager
    }
}
