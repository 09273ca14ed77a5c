import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `insert`'s rowid: the plain `INSERT` and `sqlite3_last_insert_rowid`, or `INSERT … RETURNING
/// rowid` (SQLite 3.35 and later, the package's other style); both paths run on whichever SQLite
/// is linked and give the same rowids.
@Suite struct RecordInsertReturningTests {
    /// A row keyed by text, so its rowid is not its key.
    private struct Word: Codable, Equatable {
        var text: String
        var count: Int
    }

    /// A record whose column `rowid` hides the table's rowid under that name.
    private struct Shadow: Codable, Equatable {
        var rowid: String
        var count: Int
    }

    /// A row of a full-text (virtual) table.
    private struct Text: Codable, Equatable {
        var body: String
    }

    /// A record of a table without rowid.
    private struct Keyed: Codable, Equatable {
        var key: String
        var value: Int
    }

    private static let schema = """
        CREATE TABLE word(text TEXT PRIMARY KEY, count INTEGER NOT NULL);
        CREATE TABLE shadow(rowid TEXT, count INTEGER);
        CREATE TABLE keyed(key TEXT PRIMARY KEY, value INTEGER) WITHOUT ROWID;
        CREATE VIRTUAL TABLE text USING fts4(body);
        CREATE TRIGGER word_skip BEFORE INSERT ON word WHEN NEW.text = 'skip' BEGIN SELECT RAISE(IGNORE); END;
        """

    @Test(arguments: [RecordSQL.InsertStyle.lastInsertRowID, .returning])
    func insertReturnsTheNewRowsRowid(style: RecordSQL.InsertStyle) throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.executeScript(Self.schema)
        try manager.writeSync { db throws in
            #expect(try db.insert(Note(id: nil, title: "a", score: 1), into: "note", primaryKey: nil, style: style) == 1)
            #expect(try db.insert(Note(id: 40, title: "b", score: 2), into: "note", primaryKey: nil, style: style) == 40)
            #expect(try db.insert(Note(id: nil, title: "c", score: 3), into: "note", primaryKey: nil, style: style) == 41)
            try db.execute("INSERT INTO word VALUES ('first', 0), ('second', 0)")
            let word = try db.insert(Word(text: "third", count: 3), into: "word", primaryKey: nil, style: style)
            #expect(word == 3 && db.lastInsertRowID == 3)
            #expect(try db.scalar(Int64.self, "SELECT rowid FROM word WHERE text = 'third'") == word)
            // The trigger drops the row: no rowid of its own, the connection's last one, as before.
            #expect(try db.insert(Word(text: "skip", count: 0), into: "word", primaryKey: nil, style: style) == 3)
            let shadow = try db.insert(Shadow(rowid: "declared", count: 1), into: "shadow", primaryKey: nil, style: style)
            #expect(shadow == 1)
            #expect(try db.scalar(String.self, "SELECT rowid FROM shadow WHERE _rowid_ = ?", shadow) == "declared")
            // No rowid to return: the connection's last one, on every version.
            #expect(try db.insert(Keyed(key: "k", value: 1), into: "keyed", primaryKey: nil, style: style) == shadow)
            // A virtual table's RETURNING rowid reads -1 on 3.46: the row's own rowid all the same.
            #expect(try db.insert(Text(body: "one"), into: "text", primaryKey: nil, style: style) == 1)
            #expect(try db.insert(Text(body: "two"), into: "text", primaryKey: nil, style: style) == 2)
        }
        #expect(try manager.dump("note").count == 3)
        #expect(try manager.fetchAll(String.self, "SELECT text FROM word ORDER BY rowid") == ["first", "second", "third"])
        #expect(try manager.fetchAll(String.self, "SELECT key || value FROM keyed") == ["k1"])
        #expect(try manager.fetchAll(String.self, "SELECT rowid || body FROM text ORDER BY rowid") == ["1one", "2two"])
    }

    @Test(arguments: [RecordSQL.InsertStyle.lastInsertRowID, .returning])
    func aFailedInsertThrowsTheSameErrorAndWritesNothing(style: RecordSQL.InsertStyle) throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        try manager.writeSync { db throws in
            try db.insert(Note(id: 1, title: "kept", score: 1), into: "note", primaryKey: nil, style: style)
            let taken = try #require(throws: SQLiteError.self) {
                try db.insert(Note(id: 1, title: "again", score: 2), into: "note", primaryKey: nil, style: style)
            }
            #expect(taken.code == .constraint)
            #expect(throws: RecordError.tableMissing(table: "nowhere")) {
                try db.insert(Note(id: nil, title: "x", score: 0), into: "nowhere", primaryKey: nil, style: style)
            }
            #expect(throws: RecordError.unknownColumns(table: "word", columns: ["title", "score"])) {
                try db.execute("CREATE TABLE word(id INTEGER PRIMARY KEY)")
                try db.insert(Note(id: nil, title: "x", score: 0), into: "word", primaryKey: nil, style: style)
            }
        }
        #expect(try manager.dump("note") == ["INTEGER 1|TEXT kept|INTEGER 1"])
    }

    @Test func theLinkedStyleIsThePlainInsertOnEveryVersion() {
        #expect(RecordSQL.InsertStyle.linked == .lastInsertRowID)
    }

    @Test func theReturningInsertRunsWhereTheLinkedSQLiteHasItAndFallsBackWhereItDoesNot() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.recordManager()
        let sql = RecordSQL(table: "note", columns: ["id", "title", "score"], primaryKey: [])
        let returning = try #require(sql.insertReturningRowID)
        #expect(returning == #"INSERT INTO "note"("id", "title", "score") VALUES (?, ?, ?) RETURNING rowid"#)
        try manager.withDatabase { db throws in
            #expect(try db.insert(Note(id: nil, title: "a", score: 1), into: "note", primaryKey: nil, style: .returning) == 1)
            #expect(try db.insert(Note(id: nil, title: "b", score: 2), into: "note", primaryKey: nil, style: .returning) == 2)
            let compiled = db.connection.compiles.value
            if SQLiteLibrary.has(.returning) {
                // The inserts compiled the RETURNING form (cached: nothing new) and never the plain one.
                _ = try db.connection.cachedStatement(returning)
                #expect(db.connection.compiles.value == compiled)
                _ = try db.connection.cachedStatement(sql.insert)
                #expect(db.connection.compiles.value == compiled + 1)
            } else {
                // 3.15.2 here: SQLite refuses the text, so the inserts ran the plain one (cached).
                _ = try db.connection.cachedStatement(sql.insert)
                #expect(db.connection.compiles.value == compiled)
                let error = try #require(throws: SQLiteError.self) { try db.execute(returning, 9, "c", 3) }
                #expect(error.code == .error)
            }
        }
        #expect(try manager.dump("note") == ["INTEGER 1|TEXT a|INTEGER 1", "INTEGER 2|TEXT b|INTEGER 2"])
    }

    @Test func aRecordThatNamesEveryRowidAliasInsertsWithoutReturning() {
        let sql = RecordSQL(table: "t", columns: ["OID", "rowid", "_ROWID_"], primaryKey: [])
        #expect(sql.insertReturningRowID == nil)
        #expect(RecordSQL(table: "t", columns: ["RowID"], primaryKey: []).insertReturningRowID?.hasSuffix("RETURNING _rowid_") == true)
    }
}
