// MARK: - Rebuilding a table
import SQLCipherCore

extension Database {
    /// Renames, drops or retypes columns of `table`, keeping its rows, indexes and triggers and
    /// the rows of the tables that refer to it: what `ALTER TABLE` cannot do before SQLite 3.25
    /// (RENAME COLUMN) and 3.35 (DROP COLUMN), and never does for a type.
    ///
    /// ```swift
    /// migrator.register(version: 2) { db in
    ///     try db.rebuildTable("note") { table in
    ///         table.dropColumn("obsolete")
    ///         table.renameColumn("title", to: "heading")
    ///     }
    /// }
    /// ```
    ///
    /// The table is rebuilt as SQLite's documented procedure does it on every SQLite version
    /// (lang_altertable.html, "Making Other Kinds Of Table Schema Changes"): with foreign keys
    /// off, in one transaction, the new table is created from the stored `CREATE TABLE` (every
    /// constraint, default and collation kept, the changed columns changed, also in the table's
    /// constraints), the rows copied, the old table dropped, the new one renamed, its indexes
    /// and triggers created again (a renamed column renamed in them), every view and trigger
    /// checked to compile, an `AUTOINCREMENT` counter kept, and `PRAGMA foreign_key_check` run
    /// before the commit. Inside a ``VersionedSchemaMigrator`` step, which already runs with
    /// foreign keys off, the step's own check covers it. `ALTER TABLE … RENAME COLUMN` (3.25)
    /// and `DROP COLUMN` (3.35) are not used even where the linked SQLite has them: they rewrite
    /// or refuse other tables' foreign keys, views and triggers by other rules, and run no
    /// foreign-key check, so the same call would succeed or fail differently by version.
    ///
    /// Not rewritten: triggers of other tables, views and other tables' foreign keys that name
    /// a renamed or dropped column; the rebuild is refused instead, nothing changed.
    ///
    /// - Throws: ``MigrationError/rebuildRefused(table:reason:)`` (no such table or column, a name already taken, an index,
    ///   constraint, trigger or view that uses a dropped column), ``MigrationError/foreignKeyViolations(_:)``,
    ///   ``MigrationError/insideTransaction(operation:)`` inside a transaction with foreign keys on;
    ///   nothing changed in each case.
    public func rebuildTable(_ table: String, _ changes: (inout TableRebuild) throws -> Void) throws {
        var rebuild = TableRebuild()
        try changes(&rebuild)
        try rebuildTable(table, rebuild)
    }

    /// The rebuild of `table` with `rebuild`'s changes.
    func rebuildTable(_ table: String, _ rebuild: TableRebuild) throws {
        guard !rebuild.changes.isEmpty else { return }
        let (name, sql) = try storedTable(table)
        _ = try Self.columnPairs(try columnNames(of: name), rebuild, table: name)
        let legacyRename = SQLiteLibrary.isAtLeast(3, 26)
        try withForeignKeysOff(operation: "rebuild of table \(name)") { db in
            try db.copyTable(name, sql: sql, rebuild, legacyRename: legacyRename)
        }
    }

    /// Steps 3 to 9 of SQLite's procedure, inside the transaction.
    private func copyTable(_ name: String, sql: String, _ rebuild: TableRebuild, legacyRename: Bool) throws {
        let fail = { (reason: String) in MigrationError.rebuildRefused(table: name, reason: reason) }
        guard var definition = TableDefinition(table: name, sql: sql) else { throw fail("its CREATE TABLE statement has no column list") }
        for change in rebuild.changes {
            switch change {
            case .rename(let old, let new): definition.rename(old, to: new)
            case .drop(let column): definition.drop(column)
            case .retype(let column, let type): definition.retype(column, to: type)
            }
        }
        let pairs = try Self.columnPairs(try columnNames(of: name), rebuild, table: name)
        let defined = Set(definition.parts.compactMap(\.column).map { $0.lowercased() })
        if let missing = pairs.first(where: { !defined.contains($0.new.lowercased()) }) {
            throw fail("its CREATE TABLE statement could not be read: no definition found for column \(missing.new)")
        }
        try checkNoForeignKeyNames(name, rebuild, fail: fail)
        let saved = try fetchAll(
            "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ? COLLATE NOCASE AND type IN ('index', 'trigger') AND sql IS NOT NULL",
            name)
        let objects = try saved.map { row in
            try Self.rewritten(row, table: name, rebuild, fail: fail)
        }
        let brokenBefore = try brokenViewsAndTriggers()
        let temporary = "scm_rebuild_" + name
        guard try scalar(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = ? COLLATE NOCASE", temporary) == 0 else {
            throw fail("a table named \(temporary) is in the way (left by something else): drop or rename it")
        }
        do { try execute(definition.createSQL(named: temporary)) } catch let error as SQLiteError {
            throw fail(
                "its new definition does not compile (\(error.message ?? "\(error)")): drop the constraint that uses the column first")
        }
        let sequence = try autoincrementCounter(of: name)
        try execute(
            "INSERT INTO \(SQLToken.quote(temporary)) (\(pairs.map { SQLToken.quote($0.new) }.joined(separator: ", "))) "
                + "SELECT \(pairs.map { SQLToken.quote($0.old) }.joined(separator: ", ")) FROM \(SQLToken.quote(name))")
        try execute("DROP TABLE \(SQLToken.quote(name))")
        try renameTable(temporary, to: name, legacy: legacyRename)
        if let sequence { try execute("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", sequence, name) }
        for (kind, objectName, objectSQL) in objects {
            do { try execute(objectSQL) } catch let error as SQLiteError {
                throw fail("its \(kind) \(objectName) no longer compiles (\(error.message ?? "\(error)")): drop or change it first")
            }
        }
        try checkViewsAndTriggers(table: name, before: brokenBefore)
    }

    /// No other table's foreign key names a column being renamed or dropped: its
    /// `REFERENCES note(id)` is not rewritten by the copy, and would then point at nothing.
    private func checkNoForeignKeyNames(_ name: String, _ rebuild: TableRebuild, fail: (String) -> MigrationError) throws {
        let changed = Set(
            rebuild.changes.compactMap { change -> String? in
                switch change {
                case .rename(let old, _): old.lowercased()
                case .drop(let column): column.lowercased()
                case .retype: nil
                }
            })
        guard !changed.isEmpty else { return }
        for child in try fetchAll(String.self, "SELECT name FROM sqlite_master WHERE type = 'table'", arguments: [:]) {
            for key in try fetchAll("PRAGMA foreign_key_list(\(SQLToken.quote(child)))") {
                guard key.value(2, as: String.self)?.lowercased() == name.lowercased(),
                    let column = key.value(4, as: String.self), changed.contains(column.lowercased())
                else { continue }
                throw fail(
                    "a foreign key of table \(child) refers to its column \(column): rebuild \(child) too, or on SQLite 3.25 and "
                        + "later rename with ALTER TABLE … RENAME COLUMN, which rewrites it")
            }
        }
    }

    /// `ALTER TABLE from RENAME TO to`; from SQLite 3.26 with `legacy_alter_table` on, so that
    /// a view naming the dropped table is not an error during the rename (the procedure's note).
    private func renameTable(_ from: String, to name: String, legacy: Bool) throws {
        let sql = "ALTER TABLE \(SQLToken.quote(from)) RENAME TO \(SQLToken.quote(name))"
        guard legacy else { return try execute(sql) }
        let was = try scalar(Int.self, "PRAGMA legacy_alter_table") ?? 0
        try execute("PRAGMA legacy_alter_table = ON")
        defer { try? execute("PRAGMA legacy_alter_table = \(was == 0 ? "OFF" : "ON")") }
        try execute(sql)
    }

    /// The table's name as stored and its `CREATE TABLE`, or ``MigrationError/rebuildRefused(table:reason:)``.
    private func storedTable(_ table: String) throws -> (String, String) {
        let row = try fetchOne("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", table)
        guard let row, let name = row.value(0, as: String.self), let sql = row.value(1, as: String.self),
            !name.lowercased().hasPrefix("sqlite_")
        else { throw MigrationError.rebuildRefused(table: table, reason: "there is no such table") }
        return (name, sql)
    }

    /// The table's columns (`PRAGMA table_info`: generated columns are left out, as they
    /// take no inserted value).
    private func columnNames(of table: String) throws -> [String] {
        try fetchAll("PRAGMA table_info(\(SQLToken.quote(table)))").compactMap { $0.value(1, as: String.self) }
    }

    /// `AUTOINCREMENT`'s counter for the table, when it has one.
    private func autoincrementCounter(of table: String) throws -> Int64? {
        guard try scalar(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'") == 1 else { return nil }
        return try scalar(Int64.self, "SELECT seq FROM sqlite_sequence WHERE name = ?", table)
    }
}
