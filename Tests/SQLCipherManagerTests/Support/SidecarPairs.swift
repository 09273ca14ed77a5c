import Foundation
@testable import SQLCipherManager

// MARK: - SidecarPairs

/// A database and the `-wal` or hot `-journal` a crash leaves beside it, made by copying the
/// files while a connection still has a transaction open or frames in its WAL.
enum SidecarPairs {
    /// Rows in `item` outside the WAL / before the journaled transaction.
    static let rows = 300
    /// Rows committed to the `-wal` only.
    static let walRows = 40

    /// `<dir>/<name>`: an encrypted database (`rows` padded rows in `item`), rollback journal mode.
    @discardableResult
    static func makeDatabase(in dir: TemporaryDirectory, name: String = "test.db", password: String = "secret") throws -> URL {
        let manager = dir.manager(name)
        try manager.create(password: password)
        defer { manager.close() }
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try manager.transaction { db in
            for index in 0..<rows { try db.execute("INSERT INTO item(name) VALUES (?)", rowName(index)) }
        }
        return dir.file(name)
    }

    static func rowName(_ index: Int) -> String { "MARKER-\(index)-" + String(repeating: "p", count: 200) }

    /// `<dir>/<name>` and `<name>-wal`: `rows` rows in the main file, `walRows` more committed
    /// to the WAL only (as a process killed before any checkpoint leaves them).
    static func makeWALPair(in dir: TemporaryDirectory, name: String = "test.db", password: String = "secret") throws {
        let source = TemporaryDirectory()
        let url = try makeDatabase(in: source, name: name, password: password)
        let manager = source.manager(name)
        try manager.open(password: password)
        defer { manager.close() }
        _ = try manager.scalar(String.self, "PRAGMA journal_mode = WAL")
        try manager.execute("PRAGMA wal_autocheckpoint = 0")
        try manager.transaction { db in
            for index in 0..<walRows { try db.execute("INSERT INTO item(name) VALUES (?)", "WAL-\(index)") }
        }
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: url.path + suffix, toPath: dir.file(name).path + suffix)
        }
    }

    /// `<dir>/<name>` and a hot `<name>-journal`: a transaction that rewrote every row, spilled
    /// to the main file (cache of 2 pages) and never committed.
    static func makeHotJournalPair(in dir: TemporaryDirectory, name: String = "test.db", password: String = "secret") throws {
        let source = TemporaryDirectory()
        let url = try makeDatabase(in: source, name: name, password: password)
        let manager = source.manager(name)
        try manager.open(password: password)
        defer { manager.close() }
        try manager.execute("PRAGMA cache_size = 2")
        struct RollBack: Error {}
        do {
            try manager.transaction { db in
                try db.execute("UPDATE item SET name = 'SPILLED-' || name")
                for suffix in ["", "-journal"] {
                    try FileManager.default.copyItem(atPath: url.path + suffix, toPath: dir.file(name).path + suffix)
                }
                throw RollBack()
            }
        } catch is RollBack {}
    }

    /// `rows` original rows, each once, and nothing that was never committed.
    static func checkRows(_ manager: DatabaseManager, walRows: Int = 0) throws -> Bool {
        let count = try manager.scalar(Int.self, "SELECT count(*) FROM item")
        let spilled = try manager.scalar(Int.self, "SELECT count(*) FROM item WHERE name LIKE 'SPILLED-%'")
        let wal = try manager.scalar(Int.self, "SELECT count(*) FROM item WHERE name LIKE 'WAL-%'")
        return count == rows + walRows && spilled == 0 && wal == walRows
    }

    /// Moves `<file>-<suffix>` to `<file>-<suffix>.moved`.
    static func moveAway(_ file: URL, suffix: String) throws {
        try FileManager.default.moveItem(atPath: file.path + suffix, toPath: file.path + suffix + ".moved")
    }
}
