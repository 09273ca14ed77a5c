// MARK: - DatabaseFingerprint
import SQLCipherCore

/// What an exported copy must share with its source: every schema object (tables, indexes,
/// views, triggers with their SQL), the row count of every table, `PRAGMA user_version` and
/// `PRAGMA application_id`.
package struct DatabaseFingerprint: Equatable, CustomStringConvertible {
    /// `type name tbl_name sql` of every `sqlite_master` row, sorted.
    var schema: [String]
    /// `count(*)` of every stored table (virtual tables are counted through their shadow tables).
    var rowCounts: [String: Int64]
    var userVersion: Int64
    var applicationID: Int64

    /// Reads the fingerprint of one schema (`main`, or an attached database's name).
    init(_ connection: Connection, schema name: String = "main") throws {
        let prefix = Self.quote(name)
        var schema: [String] = []
        var tables: [String] = []
        try connection.forEachRow(
            "SELECT type, name, tbl_name, sql, rootpage FROM \(prefix).sqlite_master ORDER BY type, name"
        ) { row in
            let fields = (0..<4).map { row.text(at: $0) ?? "" }
            schema.append(fields.joined(separator: " "))
            if fields[0] == "table", row.int64(at: 4) > 0 { tables.append(fields[1]) }
        }
        var rowCounts: [String: Int64] = [:]
        for table in tables {
            rowCounts[table] = try connection.int64("SELECT count(*) FROM \(prefix).\(Self.quote(table))") ?? 0
        }
        self.schema = schema
        self.rowCounts = rowCounts
        userVersion = try connection.int64("PRAGMA \(prefix).user_version") ?? 0
        applicationID = try connection.int64("PRAGMA \(prefix).application_id") ?? 0
    }

    /// An SQL identifier in double quotes.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// What differs from `other`, in words, for an error message (no row data, only names and counts).
    func difference(from other: DatabaseFingerprint) -> String {
        if schema != other.schema {
            let missing = Set(other.schema).subtracting(schema).count
            let extra = Set(schema).subtracting(other.schema).count
            return "the schema differs (\(missing) objects missing, \(extra) unexpected)"
        }
        if let table = other.rowCounts.keys.sorted().first(where: { rowCounts[$0] != other.rowCounts[$0] }) {
            return "table \(table) has \(rowCounts[table] ?? 0) rows instead of \(other.rowCounts[table] ?? 0)"
        }
        if userVersion != other.userVersion { return "user_version is \(userVersion) instead of \(other.userVersion)" }
        if applicationID != other.applicationID {
            return "application_id is \(applicationID) instead of \(other.applicationID)"
        }
        return "no difference"
    }

    package var description: String {
        "\(schema.count) schema objects, \(rowCounts.count) tables, \(rowCounts.values.reduce(0, +)) rows, "
            + "user_version \(userVersion), application_id \(applicationID)"
    }
}
