import Foundation
import SQLCipherManager

// MARK: - Seeds

/// The files the campaign and the fuzz target start from, made through the public API:
/// encrypted (rollback journal), plaintext, a WAL pair (frames only in the `-wal`), a hot
/// journal pair (a spilled, never committed transaction), and the same under another password.
public enum Seeds {
    public static let password = "secret"
    public static let otherPassword = "other-secret"
    /// Rows in `item` before the WAL frames / the journaled transaction.
    public static let rows = 60
    public static let walRows = 20

    /// The tests' fast key derivation (a legacy iteration count, opted in).
    public static var configuration: DatabaseConfiguration {
        DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 4000, allowsLegacyKDFIterations: true))
    }

    static func manager(_ path: String) -> DatabaseManager {
        DatabaseManager(url: URL(fileURLWithPath: path), configuration: configuration)
    }

    /// Every seed, by name, built in `directory`.
    public static func all(in directory: URL) throws -> [String: FileSet] {
        let base = directory.appendingPathComponent("seeds-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let encrypted = try makeDatabase(at: base + "/encrypted.db", password: password)
        try manager(base + "/encrypted.db").openThen { try $0.decrypt(to: URL(fileURLWithPath: base + "/plain.db")) }
        return [
            "encrypted": encrypted,
            "other-key": try makeDatabase(at: base + "/other.db", password: otherPassword),
            "plaintext": FileSet(readingAt: base + "/plain.db"),
            "wal-pair": try makeWALPair(at: base + "/wal.db", password: password),
            "journal-pair": try makeHotJournalPair(at: base + "/journal.db", password: password),
            "other-wal-pair": try makeWALPair(at: base + "/other-wal.db", password: otherPassword),
            "other-journal-pair": try makeHotJournalPair(at: base + "/other-journal.db", password: otherPassword),
        ]
    }

    public static func rowName(_ index: Int) -> String { "MARKER-\(index)-" + String(repeating: "p", count: 200) }

    /// An encrypted database with `rows` padded rows in `item`, rollback journal mode.
    @discardableResult
    public static func makeDatabase(at path: String, password: String, rows: Int = rows) throws -> FileSet {
        let manager = manager(path)
        try manager.create(password: password)
        defer { manager.close() }
        try manager.withDatabase { db in try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)") }
        try manager.transactionSync { db in
            for index in 0..<rows { try db.execute("INSERT INTO item(name) VALUES (?)", rowName(index)) }
        }
        return FileSet(readingAt: path)
    }

    /// The database with `walRows` more rows committed to its `-wal` only, read while the
    /// connection is still open (as a process killed before any checkpoint leaves them).
    public static func makeWALPair(at path: String, password: String, rows: Int = rows) throws -> FileSet {
        try makeDatabase(at: path, password: password, rows: rows)
        return try manager(path).openThen(password: password) { manager in
            _ = try manager.withDatabase { db in try db.scalar(String.self, "PRAGMA journal_mode = WAL") }
            try manager.withDatabase { db in try db.execute("PRAGMA wal_autocheckpoint = 0") }
            try manager.transactionSync { db in
                for index in 0..<walRows { try db.execute("INSERT INTO item(name) VALUES (?)", "WAL-\(index)") }
            }
            return FileSet(readingAt: path)
        }
    }

    /// The database and a hot `-journal`: a transaction that rewrote every row, spilled to the
    /// main file (a cache of 2 pages), read before it was rolled back.
    public static func makeHotJournalPair(at path: String, password: String, rows: Int = rows) throws -> FileSet {
        try makeDatabase(at: path, password: password, rows: rows)
        struct RollBack: Error { let files: FileSet }
        return try manager(path).openThen(password: password) { manager in
            try manager.withDatabase { db in try db.execute("PRAGMA cache_size = 2") }
            do {
                try manager.transactionSync { db in
                    try db.execute("UPDATE item SET name = 'SPILLED-' || name")
                    throw RollBack(files: FileSet(readingAt: path))
                }
            } catch let rollBack as RollBack {
                return rollBack.files
            }
            throw CocoaError(.fileWriteUnknown)
        }
    }
}

extension DatabaseManager {
    /// Opens with `password`, runs `body`, closes.
    func openThen<T>(password: String = Seeds.password, _ body: (DatabaseManager) throws -> T) throws -> T {
        try open(password: password)
        defer { close() }
        return try body(self)
    }
}
