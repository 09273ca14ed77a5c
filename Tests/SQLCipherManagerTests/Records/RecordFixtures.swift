import Foundation
import TestSupport

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - Record types shared by the record tests

/// Every type the record calls convert, one column each.
struct EveryType: Codable, Equatable, TableRecord {
    static let databaseTableName = "every"

    enum Status: String, Codable { case draft, published }
    enum Priority: Int, Codable {
        case low = 1
        case high = 9
    }
    struct Extra: Codable, Equatable {
        var tags: [String]
        var weight: Int
    }

    var id: Int64?
    var int: Int
    var int64: Int64
    var double: Double
    var bool: Bool
    var string: String
    var data: Data
    var date: Date
    var uuid: UUID
    var url: URL
    var decimal: Decimal
    var status: Status
    var priority: Priority?
    var note: String?
    var seen: Date?
    var token: UUID?
    var extra: Extra

    static let createSQL = """
        CREATE TABLE every(id INTEGER PRIMARY KEY, int INTEGER, int64 INTEGER, double REAL, bool INTEGER,
            string TEXT, data BLOB, date TEXT, uuid BLOB, url TEXT, decimal TEXT, status TEXT, priority INTEGER,
            note TEXT, seen TEXT, token BLOB, extra TEXT)
        """

    /// A value with every field set, distinct for each `seed`.
    static func sample(_ seed: Int, id: Int64? = nil) -> EveryType {
        EveryType(
            id: id, int: -seed, int64: Int64.max - Int64(seed), double: Double(seed) + 0.25, bool: seed % 2 == 0,
            string: "text \(seed) ✓ \"quoted\"", data: Data([0, UInt8(seed % 256), 0xFF]),
            date: Date(timeIntervalSince1970: Double(1_700_000_000_123 + Int64(seed) * 1000) / 1000), uuid: UUID(),
            url: URL(string: "https://example.com/n/\(seed)?q=a%20b")!, decimal: Decimal(string: "12345678901234567890.\(seed)")!,
            status: seed % 2 == 0 ? .draft : .published, priority: seed % 3 == 0 ? nil : .high,
            note: seed % 2 == 0 ? nil : "note \(seed)", seen: seed % 2 == 0 ? nil : Date(timeIntervalSince1970: 86_400.5),
            token: seed % 2 == 0 ? nil : UUID(), extra: Extra(tags: ["a", "b\(seed)"], weight: seed))
    }
}

/// A note with an assigned rowid (`INTEGER PRIMARY KEY`).
struct Note: Codable, Equatable, TableRecord {
    static let databaseTableName = "note"
    var id: Int64?
    var title: String
    var score: Int

    static let createSQL = "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, score INTEGER NOT NULL)"
}

/// A row keyed by two columns.
struct Membership: Codable, Equatable, TableRecord {
    static let databaseTableName = "membership"
    static let primaryKey = ["team", "person"]
    var team: String
    var person: Int
    var role: String

    static let createSQL = "CREATE TABLE membership(team TEXT, person INTEGER, role TEXT NOT NULL, PRIMARY KEY (team, person))"
}

/// The same columns as `Note`, not a `TableRecord`: the per-call table name.
struct PlainNote: Codable, Equatable {
    var id: Int64?
    var title: String
    var score: Int
}

/// A counter of the ledger tests: `writer`'s `count`-th save of `id`.
struct LedgerCounter: Codable, Equatable, TableRecord {
    static let databaseTableName = "counter"
    var id: String
    var writer: Int
    var count: Int

    static let createSQL = "CREATE TABLE counter(id TEXT PRIMARY KEY, writer INTEGER NOT NULL, count INTEGER NOT NULL)"
}

extension TemporaryDirectory {
    /// A created database (password "secret") with the record tests' tables.
    func recordManager(_ name: String = "test.db", configure: (inout DatabaseConfiguration) -> Void = { _ in }) throws -> DatabaseManager {
        let manager = manager(name, configure: configure)
        try manager.create(password: "secret")
        try manager.executeScript(
            [EveryType.createSQL, Note.createSQL, Membership.createSQL, LedgerCounter.createSQL].joined(separator: ";\n"))
        return manager
    }
}

extension DatabaseManager {
    /// Every row of `table` as text, in rowid order: what "nothing changed" compares.
    func dump(_ table: String) throws -> [String] {
        try fetchAll("SELECT * FROM \(table) ORDER BY rowid").map { row in
            (0..<row.count).map { index -> String in
                let value = row[index]
                if case .blob(let data) = value { return "x'" + data.map { String(format: "%02x", $0) }.joined() + "'" }
                return "\(value.storageClass) \(value)"
            }.joined(separator: "|")
        }
    }
}
