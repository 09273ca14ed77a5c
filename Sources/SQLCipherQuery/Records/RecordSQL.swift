// MARK: - RecordSQL
import SQLCipherCore

/// The SQL of the record calls for one table and one set of columns, names quoted (never a
/// value: every value is a bound parameter). Built once per record type and table
/// (``RecordTemplate``); the upsert's form is chosen by the caller, so both are testable on any
/// SQLite.
struct RecordSQL: Equatable {
    /// How ``upsert(style:)`` writes a save.
    enum UpsertStyle: Equatable {
        /// `INSERT … ON CONFLICT(key) DO UPDATE SET …`: SQLite 3.24 and later.
        case native
        /// `UPDATE … WHERE key = ?`, then the `INSERT` when it changed no row, in one
        /// transaction (a savepoint when nested): older SQLite.
        case emulated

        /// What the linked SQLite supports (`sqlite3_libversion_number`, read at run time).
        static let linked: UpsertStyle = SQLiteLibrary.has(.upsert) ? .native : .emulated
    }

    /// How ``Database/insert(_:)`` learns the new row's rowid.
    enum InsertStyle: Equatable {
        /// `INSERT … RETURNING rowid`, the value read from the statement's one row: SQLite 3.35
        /// and later (on older ones, and for a table without rowid, a view or a virtual table,
        /// it falls back to ``lastInsertRowID``, the same value).
        case returning
        /// The plain `INSERT`, then `sqlite3_last_insert_rowid`.
        case lastInsertRowID

        /// The plain insert on every version: SQLite runs `RETURNING` as a trigger program per
        /// row, which made a per-row insert about 1.5× slower on 3.46 for the same rowid.
        static let linked: InsertStyle = .lastInsertRowID
    }

    /// A statement and which value binds at each of its parameters (an index into the columns).
    struct Plan: Equatable {
        var sql: String
        var order: [Int]
    }

    let table: String
    let columns: [String]
    let primaryKey: [String]

    /// `name` in double quotes, inner quotes doubled: safe in SQL whatever it holds.
    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// `INSERT INTO "t"("a", "b") VALUES (?, ?)`, the values in column order.
    var insert: String {
        "INSERT INTO \(Self.quote(table))(\(columns.map(Self.quote).joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }

    /// ``insert`` with `RETURNING` the rowid under the first of its three names (`rowid`,
    /// `_rowid_`, `oid`) that is not one of the record's columns (a declared column of that name
    /// hides the rowid); `nil` when the record has all three.
    var insertReturningRowID: String? {
        let taken = Set(columns.map { $0.lowercased() })
        guard let name = ["rowid", "_rowid_", "oid"].first(where: { !taken.contains($0) }) else { return nil }
        return insert + " RETURNING " + name
    }

    /// The position of each primary-key column among the columns (SQLite's names are
    /// case-insensitive), or the error that says which is missing.
    func keyPositions() throws -> [Int] {
        guard !primaryKey.isEmpty else { throw RecordError.noPrimaryKey(table: table) }
        return try primaryKey.map { key in
            guard let index = columns.firstIndex(where: { $0.lowercased() == key.lowercased() }) else {
                throw RecordError.primaryKeyNotEncoded(table: table, column: key)
            }
            return index
        }
    }

    /// `UPDATE "t" SET "b" = ?, "c" = ? WHERE "a" = ?`: the other columns, then the key. A record
    /// of key columns only sets them to themselves, so that an existing row still counts as changed.
    package func update() throws -> Plan {
        let keys = try keyPositions()
        let others = columns.indices.filter { !keys.contains($0) }
        let set = others.isEmpty ? keys : others
        let assignments = set.map { "\(Self.quote(columns[$0])) = ?" }.joined(separator: ", ")
        return Plan(
            sql: "UPDATE \(Self.quote(table)) SET \(assignments) WHERE \(Self.condition(keys.map { columns[$0] }))", order: set + keys)
    }

    /// The save: the native `INSERT … ON CONFLICT … DO UPDATE` (its values in column order), or
    /// for the emulation the ``update()`` to run first (the ``insert`` follows when it changed no row).
    package func upsert(style: UpsertStyle) throws -> Plan {
        let keys = try keyPositions()
        guard style == .native else { return try update() }
        let others = columns.indices.filter { !keys.contains($0) }
        let target = keys.map { Self.quote(columns[$0]) }.joined(separator: ", ")
        let action =
            others.isEmpty
            ? "DO NOTHING"
            : "DO UPDATE SET " + others.map { "\(Self.quote(columns[$0])) = excluded.\(Self.quote(columns[$0]))" }.joined(separator: ", ")
        return Plan(sql: insert + " ON CONFLICT(\(target)) \(action)", order: Array(columns.indices))
    }

    /// `SELECT * FROM "t" WHERE "a" = ? AND "b" = ?`.
    static func select(table: String, primaryKey: [String]) -> String {
        "SELECT * FROM \(quote(table)) WHERE \(condition(primaryKey))"
    }

    /// `DELETE FROM "t" WHERE "a" = ? AND "b" = ?`.
    static func delete(table: String, primaryKey: [String]) -> String {
        "DELETE FROM \(quote(table)) WHERE \(condition(primaryKey))"
    }

    private static func condition(_ key: [String]) -> String {
        key.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
    }
}
