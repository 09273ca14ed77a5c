import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The authorizer reports the tables a statement reads while it compiles, also for a cached
/// statement reused while recording, and the change tracker the tables a commit changed.
@Suite("Tables read and written, from the authorizer and the hooks")
struct TableAccessTests {
    static func connection(_ dir: TemporaryDirectory) throws -> Connection {
        let connection = try Connection(path: dir.file().path, mode: .readWriteCreate)
        try connection.executeScript(
            "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT); CREATE TABLE other(id INTEGER PRIMARY KEY, x);"
                + "CREATE TABLE keyed(k TEXT PRIMARY KEY, v) WITHOUT ROWID; CREATE VIEW titles AS SELECT title FROM note")
        return connection
    }

    static func reads(_ connection: Connection, _ sql: String) throws -> Set<String> {
        try connection.recordingReads { () throws -> Void in
            let statement = try connection.cachedStatement(sql)
            while try statement.step() {}
        }.reads
    }

    @Test func readsOfQueries() throws {
        let dir = TemporaryDirectory()
        let connection = try Self.connection(dir)
        #expect(try Self.reads(connection, "SELECT title FROM note") == ["note"])
        #expect(try Self.reads(connection, "SELECT count(*) FROM note") == ["note"])
        #expect(try Self.reads(connection, "SELECT * FROM titles").contains("note"))
        #expect(try Self.reads(connection, "SELECT n.title, o.x FROM note n JOIN other o ON o.id = n.id") == ["note", "other"])
        #expect(try Self.reads(connection, "SELECT 1").isEmpty)
        // Cached: compiled above without recording, compiled again, then reused.
        _ = try connection.cachedStatement("SELECT x FROM other")
        #expect(try Self.reads(connection, "SELECT x FROM other") == ["other"])
        #expect(try Self.reads(connection, "SELECT x FROM other") == ["other"])
    }

    @Test func commitsAndRollbacks() throws {
        let dir = TemporaryDirectory()
        let connection = try Self.connection(dir)
        let tracker = connection.trackChanges()
        try connection.executeScript("INSERT INTO note(title) VALUES ('a'); INSERT INTO keyed VALUES ('k', 1)")
        #expect(tracker.takeCommitted()?.writes == ["note", "keyed"])
        #expect(tracker.takeCommitted() == nil)
        try connection.executeScript("BEGIN; INSERT INTO other(x) VALUES (1); ROLLBACK")
        #expect(tracker.takeCommitted() == nil)
        try connection.executeScript("DELETE FROM note")
        #expect(tracker.takeCommitted()?.writes == ["note"])
        try connection.executeScript("CREATE TABLE more(x)")
        #expect(tracker.takeCommitted()?.changesSchema == true)
    }
}
