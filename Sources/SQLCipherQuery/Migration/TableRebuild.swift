// MARK: - TableRebuild

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

    init() {}

    /// Renames a column, in the table and in its indexes and triggers. A view, another table's
    /// trigger or foreign key that names it makes the rebuild fail: drop or change it first.
    public mutating func renameColumn(_ name: String, to newName: String) {
        changes.append(.rename(name, to: newName))
    }

    /// Drops a column and its values. An index, a constraint, a trigger or a view that uses it
    /// makes the rebuild fail: drop it first.
    public mutating func dropColumn(_ name: String) {
        changes.append(.drop(name))
    }

    /// Gives a column another declared type (`INTEGER`, `REAL`, `TEXT`, `BLOB`, `NUMERIC`, or
    /// any type name), keeping its constraints; the values are copied as they are, with the new
    /// column's type affinity. SQLite has no `ALTER TABLE` for this: always a rebuild.
    public mutating func retypeColumn(_ name: String, to type: String) {
        changes.append(.retype(name, to: type))
    }
}
