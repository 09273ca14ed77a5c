// MARK: - Schema changes with foreign keys off

extension Database {
    /// Runs `body` in a `BEGIN IMMEDIATE` transaction with foreign keys off (set before the
    /// transaction, where the pragma works, and restored after it, whatever happens), then
    /// `PRAGMA foreign_key_check` before the commit: steps 1, 2, 10, 11 and 12 of SQLite's
    /// procedure for schema changes (lang_altertable.html, "Making Other Kinds Of Table Schema
    /// Changes"). When foreign keys are already off, nothing is checked; inside a transaction
    /// with foreign keys off, `body` runs in a savepoint.
    ///
    /// - Throws: ``MigrationError/insideTransaction(operation:)`` inside a transaction with foreign keys on
    ///   (nothing run); ``MigrationError/foreignKeyViolations(_:)`` when rows are left without their parent
    ///   (rolled back); what `body` throws (rolled back).
    func withForeignKeysOff<T>(operation: String, _ body: (Database) throws -> T) throws -> T {
        let enforced = try scalar(Int.self, "PRAGMA foreign_keys") == 1
        guard enforced else { return try transaction(.immediate, body) }
        guard !isInTransaction else { throw MigrationError.insideTransaction(operation: operation) }
        try execute("PRAGMA foreign_keys = OFF")
        defer { try? execute("PRAGMA foreign_keys = ON") }
        return try transaction(.immediate) { db in
            let result = try body(db)
            try db.checkForeignKeys()
            return result
        }
    }

    /// `PRAGMA foreign_key_check` over the whole database.
    ///
    /// - Throws: ``MigrationError/foreignKeyViolations(_:)`` naming each child table, its parent and the count
    ///   of rows without a parent.
    func checkForeignKeys() throws {
        // One result row per violated constraint of a row: a row is counted once per parent.
        var rows: [String: [String: Set<Int64>]] = [:]
        var unnamed: [String: [String: Int]] = [:]
        for row in try fetchAll("PRAGMA foreign_key_check") {
            guard let table = row.value(0, as: String.self), let parent = row.value(2, as: String.self) else { continue }
            if let rowid = row.value(1, as: Int64.self) {
                rows[table, default: [:]][parent, default: []].insert(rowid)
            } else {
                unnamed[table, default: [:]][parent, default: 0] += 1  // WITHOUT ROWID: no rowid to tell rows apart
            }
        }
        var counts = rows.mapValues { $0.mapValues(\.count) }
        counts.merge(unnamed) { $0.merging($1, uniquingKeysWith: +) }
        guard !counts.isEmpty else { return }
        let violations = counts.sorted { $0.key < $1.key }.flatMap { table, parents in
            parents.sorted { $0.key < $1.key }.map { MigrationError.ForeignKeyViolation(table: table, parent: $0.key, rowCount: $0.value) }
        }
        throw MigrationError.foreignKeyViolations(violations)
    }
}
