// MARK: - TableRebuild
import SQLCipherCore

/// The column changes of one ``Database/rebuildTable(_:_:)``, applied in the order given.
///
/// ```swift
/// try db.rebuildTable("note") { table in
///     table.renameColumn("title", to: "heading")
///     table.dropColumn("obsolete")
///     table.retypeColumn("rank", to: "REAL")
/// }
/// ```
public struct TableRebuild: Sendable {
    /// One change.
    package enum Change: Sendable {
        case rename(String, to: String)
        case drop(String)
        case retype(String, to: String)
    }

    package var changes: [Change] = []

    package init() {}

    /// Renames a column, in the table and in its indexes and triggers (`ALTER TABLE … RENAME
    /// COLUMN` on SQLite 3.25 and later).
    public mutating func renameColumn(_ name: String, to newName: String) {
        changes.append(.rename(name, to: newName))
    }

    /// Drops a column and its values (`ALTER TABLE … DROP COLUMN` on SQLite 3.35 and later).
    /// An index, a constraint or a trigger that uses it makes the rebuild fail: drop it first.
    public mutating func dropColumn(_ name: String) {
        changes.append(.drop(name))
    }

    /// Gives a column another declared type (`INTEGER`, `REAL`, `TEXT`, `BLOB`, `NUMERIC`, or
    /// any type name), keeping its constraints; the values are copied as they are, with the new
    /// column's type affinity. SQLite has no `ALTER TABLE` for this: always a rebuild.
    public mutating func retypeColumn(_ name: String, to type: String) {
        changes.append(.retype(name, to: type))
    }

    /// `true` when every change is a rename, or a rename or a drop: what `ALTER TABLE` does
    /// itself from SQLite 3.25 (RENAME COLUMN) and 3.35 (DROP COLUMN).
    package func isNative(on version: SQLCipherVersion) -> Bool {
        changes.allSatisfy { change in
            switch change {
            case .rename: version >= SQLCipherVersion(3, 25, 0)
            case .drop: version >= SQLCipherVersion(3, 35, 0)
            case .retype: false
            }
        }
    }
}
