import Foundation

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - RichDatabase

/// A database with every kind of schema object an export must carry over: an AUTOINCREMENT
/// table, a foreign key, a CHECK, a plain and a UNIQUE index, a WITHOUT ROWID table, a view, a
/// trigger, `sqlite_stat1`, `user_version` and `application_id`.
enum RichDatabase {
    static let userVersion = 7
    static let applicationID = 0x5343_4D31

    static let schema = """
        CREATE TABLE author(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE);
        CREATE TABLE book(id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES author(id),
                          title TEXT, pages INTEGER CHECK (pages > 0), cover BLOB);
        CREATE INDEX book_author ON book(author_id);
        CREATE UNIQUE INDEX book_title ON book(title);
        CREATE TABLE tag(name TEXT PRIMARY KEY, weight REAL) WITHOUT ROWID;
        CREATE TABLE audit(id INTEGER PRIMARY KEY, event TEXT);
        CREATE VIEW long_books AS SELECT title FROM book WHERE pages > 300;
        CREATE TRIGGER book_audit AFTER INSERT ON book BEGIN
            INSERT INTO audit(event) VALUES ('added ' || new.title);
        END;
        """

    /// Creates the schema and `rows` books (titles `MARKER-<n>`, findable in plaintext bytes).
    static func populate(_ db: Database, rows: Int) throws {
        try db.transaction { db in
            try db.executeScript(schema)
            for index in 0..<max(rows / 10, 1) { try db.execute("INSERT INTO author(name) VALUES (?)", "author-\(index)") }
            for index in 0..<rows {
                try db.execute(
                    "INSERT INTO book(author_id, title, pages, cover) VALUES (?, ?, ?, ?)",
                    index % max(rows / 10, 1) + 1, "MARKER-\(index)", index % 500 + 1, Data(repeating: UInt8(index % 256), count: 16))
            }
            for index in 0..<20 { try db.execute("INSERT INTO tag(name, weight) VALUES (?, ?)", "tag-\(index)", Double(index) / 2) }
            try db.executeScript("ANALYZE")
            try db.execute("PRAGMA application_id = \(applicationID)")
            try db.setSchemaVersion(userVersion)
        }
    }

    /// A plaintext file (no key); `wal` puts it in WAL mode.
    static func makePlaintext(at url: URL, rows: Int = 200, wal: Bool = false) throws {
        let connection = try Connection(path: url.path, mode: .readWriteCreate)
        defer { connection.close() }
        let db = Database(connection: connection)
        if wal { try db.executeScript("PRAGMA journal_mode = WAL") }
        try populate(db, rows: rows)
    }

    /// An encrypted file made by a manager (4000 KDF iterations).
    @discardableResult
    static func makeEncrypted(
        in dir: TemporaryDirectory, name: String = "test.db", password: String = "old-secret", rows: Int = 200, wal: Bool = false
    ) throws -> URL {
        let manager = dir.manager(name)
        try manager.create(password: password)
        try manager.withDatabase { db in
            if wal { try db.executeScript("PRAGMA journal_mode = WAL") }
            try populate(db, rows: rows)
        }
        manager.close()
        return dir.file(name)
    }

    /// Checks every row and object a populated database must have, and that the trigger, the
    /// CHECK and the foreign key still work (inside a rolled-back savepoint).
    static func verify(_ db: Database, rows: Int) throws -> [String] {
        var problems: [String] = []
        func expect(_ sql: String, _ value: Int64) throws {
            let found = try db.scalar(Int64.self, sql)
            if found != value { problems.append("\(sql) = \(found.map(String.init) ?? "nil"), expected \(value)") }
        }
        let pagesSum = (0..<rows).reduce(Int64(0)) { $0 + Int64($1 % 500 + 1) }
        try expect("SELECT count(*) FROM book", Int64(rows))
        try expect("SELECT total(pages) FROM book", pagesSum)
        try expect("SELECT total(length(cover)) FROM book", Int64(rows * 16))
        try expect("SELECT count(*) FROM audit", Int64(rows))
        try expect("SELECT count(*) FROM author", Int64(max(rows / 10, 1)))
        try expect("SELECT count(*) FROM tag", 20)
        try expect("SELECT count(*) FROM long_books", Int64((0..<rows).filter { $0 % 500 + 1 > 300 }.count))
        try expect("SELECT count(*) FROM sqlite_master WHERE name IN ('book_author','book_title','book_audit','long_books')", 4)
        try expect("PRAGMA user_version", Int64(userVersion))
        try expect("PRAGMA application_id", Int64(applicationID))
        return problems
    }

    /// `true` when the trigger fires and the CHECK constraint holds (changes rolled back).
    static func constraintsWork(_ db: Database) throws -> Bool {
        try db.execute("SAVEPOINT probe")
        defer {
            try? db.execute("ROLLBACK TO probe")
            try? db.execute("RELEASE probe")
        }
        let before = try db.scalar(Int64.self, "SELECT count(*) FROM audit") ?? 0
        try db.execute("INSERT INTO book(author_id, title, pages) VALUES (1, 'probe', 1)")
        let fired = (try db.scalar(Int64.self, "SELECT count(*) FROM audit") ?? 0) == before + 1
        let checkHolds = (try? db.execute("INSERT INTO book(author_id, title, pages) VALUES (1, 'bad', -1)")) == nil
        return fired && checkHolds
    }
}

// MARK: - Probing a file

extension TemporaryDirectory {
    /// The error case name when a fresh manager opens `name` with `password` ("none" when it opens).
    func openResult(
        _ name: String = "test.db", password: String, configure: (inout DatabaseConfiguration) -> Void = { _ in }
    ) -> String {
        let manager = manager(name, configure: configure)
        defer { manager.close() }
        return thrownCase { try manager.open(password: password) }
    }

    /// Runs `body` on a fresh manager opened with `password`.
    func withOpened<T>(
        _ name: String = "test.db", password: String, configure: (inout DatabaseConfiguration) -> Void = { _ in },
        _ body: (Database) throws -> T
    ) throws -> T {
        let manager = manager(name, configure: configure)
        try manager.open(password: password)
        defer { manager.close() }
        return try manager.withDatabase(body)
    }
}
