import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `Database.rebuildTable`: SQLite's 12-step table rebuild for the column changes
/// `ALTER TABLE` lacks before 3.25 / 3.35.
@Suite struct RebuildTableTests {
    private static let schema = """
        CREATE TABLE note(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL DEFAULT 'untitled' COLLATE NOCASE CHECK (length(title) < 100),
            rank INTEGER,
            obsolete TEXT,
            UNIQUE (title, rank)
        );
        CREATE INDEX note_title ON note(title COLLATE NOCASE DESC) WHERE rank > 0;
        CREATE TABLE tag(id INTEGER PRIMARY KEY, note_id INTEGER REFERENCES note(id) ON DELETE CASCADE, name TEXT);
        CREATE TABLE log(what TEXT);
        CREATE TRIGGER note_added AFTER INSERT ON note BEGIN INSERT INTO log(what) VALUES ('added ' || NEW.title); END;
        CREATE VIEW ranked AS SELECT id, rank FROM note WHERE rank IS NOT NULL;
        INSERT INTO note(id, title, rank, obsolete) VALUES (1, 'one', 1, 'x'), (2, 'two', 2, 'y'), (3, 'three', 3, 'z');
        DELETE FROM note WHERE id = 3;
        INSERT INTO tag(note_id, name) VALUES (1, 'a'), (1, 'b'), (2, 'c');
        DELETE FROM log;
        """

    /// A database in `dir` (which the test keeps alive) with the schema above.
    private func database(in dir: TemporaryDirectory) throws -> DatabaseManager {
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.executeScript(Self.schema)
        return manager
    }

    private static func changes(_ table: inout TableRebuild) {
        table.dropColumn("obsolete")
        table.renameColumn("title", to: "heading")
        table.retypeColumn("rank", to: "REAL")
    }

    /// Everything `note` should be after ``changes(_:)``.
    private func expectRebuilt(_ manager: DatabaseManager) throws {
        let columns = try manager.fetchAll("PRAGMA table_info(note)").map {
            "\($0.value(1, as: String.self)!) \($0.value(2, as: String.self)!)"
        }
        #expect(columns == ["id INTEGER", "heading TEXT", "rank REAL"])
        #expect(
            try manager.fetchAll(String.self, "SELECT id || heading || typeof(rank) FROM note ORDER BY id") == ["1onereal", "2tworeal"])
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 3)
        #expect(try manager.scalar(Int.self, "PRAGMA foreign_keys") == 1)
        #expect(try manager.fetchAll("PRAGMA foreign_key_check").isEmpty)
        // The index, with its column renamed, its collation, order and WHERE kept.
        let index = try manager.scalar(String.self, "SELECT sql FROM sqlite_master WHERE name = 'note_title'")
        #expect(index == "CREATE INDEX note_title ON note(\"heading\" COLLATE NOCASE DESC) WHERE rank > 0")
        #expect(try manager.fetchAll("PRAGMA index_info(note_title)").map { $0.value(2, as: String.self) } == ["heading"])
        // Constraints kept: DEFAULT, COLLATE, CHECK and UNIQUE, on the renamed column.
        try manager.execute("INSERT INTO note(rank) VALUES (9)")
        #expect(try manager.scalar(String.self, "SELECT heading FROM note WHERE rank = 9") == "untitled")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM note WHERE heading = 'ONE'") == 1)
        #expect(throws: SQLiteError.self) {
            try manager.execute("INSERT INTO note(heading) VALUES (?)", String(repeating: "x", count: 100))
        }
        #expect(throws: SQLiteError.self) { try manager.execute("INSERT INTO note(heading, rank) VALUES ('one', 1)") }
        // AUTOINCREMENT's counter kept: id 3 was used and deleted, so the next ids are 4 and 5.
        #expect(try manager.scalar(Int.self, "SELECT id FROM note WHERE rank = 9") == 4)
        // The trigger, with NEW.title now NEW.heading, and the view.
        #expect(try manager.fetchAll(String.self, "SELECT what FROM log") == ["added untitled"])
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM ranked") == 3)
        // The cascade to tag still works.
        try manager.execute("DELETE FROM note WHERE id = 1")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 1)
    }

    @Test func aRebuildInAMigrationStepKeepsRowsIndexesTriggersAndChildren() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        manager.close()
        var migrator = VersionedSchemaMigrator()
        migrator.register(version: 1) { db in try db.rebuildTable("note", Self.changes) }
        manager.schemaMigrator = migrator
        try manager.open(password: "secret")
        #expect(try manager.schemaVersion == 1)
        try expectRebuilt(manager)
    }

    @Test func aRebuildOutsideAMigrationTurnsForeignKeysOffAndBackOn() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        try manager.withDatabase { db in try db.rebuildTable("NOTE", Self.changes) }
        try expectRebuilt(manager)
    }

    @Test func quotedNamesAndWithoutRowidTablesAreRebuilt() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: #"CREATE TABLE "my table"([a b] TEXT PRIMARY KEY, `c"d` INT, e) WITHOUT ROWID"#)
        try manager.execute(#"CREATE INDEX "my index" ON "my table"(`c"d` DESC)"#)
        try manager.execute(#"INSERT INTO "my table" VALUES ('k', 1, 'x')"#)
        try manager.withDatabase { db in
            try db.rebuildTable("My Table") { table in
                table.renameColumn(#"c"d"#, to: "f g")
                table.dropColumn("E")
            }
        }
        #expect(try manager.fetchAll(#"PRAGMA table_info("my table")"#).map { $0.value(1, as: String.self) } == ["a b", "f g"])
        #expect(try manager.fetchAll(#"PRAGMA index_info("my index")"#).map { $0.value(2, as: String.self) } == ["f g"])
        #expect(try manager.scalar(String.self, #"SELECT "a b" || "f g" FROM "my table""#) == "k1")
        let sql = try manager.scalar(String.self, #"SELECT sql FROM sqlite_master WHERE name = 'my table'"#)
        #expect(sql?.hasSuffix("WITHOUT ROWID") == true)
    }

    @Test func aViewOrTriggerThatWasAlreadyBrokenDoesNotStopARebuild() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        try manager.executeScript(
            """
            CREATE VIEW stale AS SELECT gone FROM log;
            CREATE TRIGGER stale_log AFTER INSERT ON log BEGIN SELECT gone FROM log; END;
            """)
        try manager.withDatabase { db in try db.rebuildTable("note") { $0.dropColumn("obsolete") } }
        #expect(try manager.fetchAll("PRAGMA table_info(note)").map { $0.value(1, as: String.self) } == ["id", "title", "rank"])
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM sqlite_master WHERE name IN ('stale', 'stale_log')") == 2)
    }

    // MARK: - Refusals: typed, nothing changed

    /// `body` throws `MigrationError.rebuildRefused` whose reason contains `reason`, and `note` is as the schema made it.
    private func expectRefused(_ reason: String, setUp: String = "", _ body: @escaping (Database) throws -> Void) throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        if !setUp.isEmpty { try manager.executeScript(setUp) }
        let before = try manager.fetchAll("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        let rows = try manager.fetchAll("SELECT * FROM note")
        do {
            try manager.withDatabase(body)
            Issue.record("the rebuild should fail")
        } catch MigrationError.rebuildRefused(_, let why) {
            #expect(why.contains(reason), "\(why)")
        }
        #expect(try manager.fetchAll("SELECT type, name, sql FROM sqlite_master ORDER BY name") == before)
        #expect(try manager.fetchAll("SELECT * FROM note") == rows)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 3)
        #expect(try manager.scalar(Int.self, "PRAGMA foreign_keys") == 1)
    }

    @Test func anUnknownTableOrColumnIsRefused() throws {
        try expectRefused("no such table") { db in try db.rebuildTable("nothing") { $0.dropColumn("x") } }
        try expectRefused("no column nope") { db in try db.rebuildTable("note") { $0.renameColumn("nope", to: "x") } }
        try expectRefused("already taken") { db in try db.rebuildTable("note") { $0.renameColumn("rank", to: "Title") } }
        try expectRefused("not a type name") { db in try db.rebuildTable("note") { $0.retypeColumn("rank", to: "INT); DROP TABLE tag; --") }
        }
    }

    @Test func droppingAColumnAnIndexOrAConstraintUsesIsRefused() throws {
        try expectRefused("index note_obsolete", setUp: "CREATE INDEX note_obsolete ON note(obsolete)") { db in
            try db.rebuildTable("note") { $0.dropColumn("obsolete") }
        }
        try expectRefused("new definition does not compile") { db in try db.rebuildTable("note") { $0.dropColumn("rank") } }
        try expectRefused("trigger note_added uses column title") { db in
            try db.rebuildTable("note") { table in
                table.renameColumn("rank", to: "level")
                table.dropColumn("title")
            }
        }
    }

    @Test func aTriggerOrViewThatWouldBreakIsRefused() throws {
        try expectRefused(
            "trigger note_added uses column obsolete",
            setUp: "DROP TRIGGER note_added; CREATE TRIGGER note_added AFTER UPDATE OF obsolete ON note BEGIN SELECT 1; END;"
        ) { db in
            try db.rebuildTable("note") { $0.dropColumn("obsolete") }
        }
        try expectRefused(
            "without NEW., OLD. or note.",
            setUp: "CREATE TRIGGER touch AFTER UPDATE ON note BEGIN UPDATE note SET obsolete = 'u' WHERE id = NEW.id; END;"
        ) { db in
            try db.rebuildTable("note") { $0.renameColumn("obsolete", to: "old") }
        }
        try expectRefused("view ranked no longer compiles") { db in
            try db.rebuildTable("note") { $0.renameColumn("rank", to: "level") }
        }
        try expectRefused(
            "the trigger log_note no longer compiles (no such column: obsolete)",
            setUp: "CREATE TRIGGER log_note AFTER DELETE ON log BEGIN UPDATE note SET obsolete = OLD.what; END;"
        ) { db in
            try db.rebuildTable("note") { $0.dropColumn("obsolete") }
        }
        try expectRefused(
            "the trigger tag_note no longer compiles (no such column: rank)",
            setUp: "CREATE TRIGGER tag_note AFTER UPDATE OF name ON tag BEGIN SELECT rank FROM note; END;"
        ) { db in
            try db.rebuildTable("note") { $0.renameColumn("rank", to: "level") }
        }
        try expectRefused("a foreign key of table tag refers to its column id") { db in
            try db.rebuildTable("note") { $0.renameColumn("id", to: "key") }
        }
    }

    @Test func aRebuildInsideATransactionWithForeignKeysOnIsRefused() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        let outcome = Result { try manager.transactionSync { db in try db.rebuildTable("note") { $0.dropColumn("obsolete") } } }
        guard case .failure(let error) = outcome else { return #expect(Bool(false)) }
        #expect(error as? MigrationError == .insideTransaction(operation: "rebuild of table note"))
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 3)
        #expect(try manager.fetchAll("PRAGMA table_info(note)").count == 4)
    }

    @Test func aRebuildThatOrphansRowsIsRolledBack() throws {
        let dir = TemporaryDirectory()
        let manager = try database(in: dir)
        // An orphan written while foreign keys were off: the check before the commit finds it.
        try manager.executeScript(
            "PRAGMA foreign_keys = OFF; INSERT INTO tag(note_id, name) VALUES (77, 'orphan'); PRAGMA foreign_keys = ON;")
        let outcome = Result { try manager.withDatabase { db in try db.rebuildTable("note") { $0.dropColumn("obsolete") } } }
        guard case .failure(let error) = outcome else { return #expect(Bool(false)) }
        #expect(error as? MigrationError == .foreignKeyViolations([.init(table: "tag", parent: "note", rowCount: 1)]))
        #expect(try manager.fetchAll("PRAGMA table_info(note)").count == 4)
    }
}
