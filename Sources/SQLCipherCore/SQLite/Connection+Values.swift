// MARK: - Reading values on a connection

/// The few reads the layers below the query layer need (export, fingerprint, verification,
/// unlock checks), on a statement of their own (`sqlite3_prepare_v2`, `sqlite3_step`), without
/// the public ``Database`` façade. Nothing is bound and nothing is cached.
extension Connection {
    /// Calls `body` with the statement positioned on each row of `sql` in turn.
    package func forEachRow(_ sql: String, _ body: (Statement) throws -> Void) throws {
        let statement = try prepare(sql)
        while try statement.step() { try body(statement) }
    }

    /// The first column of the first row as text (`sqlite3_column_text`); `nil` for no row or NULL.
    package func text(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.text(at: 0) : nil
    }

    /// The first column of the first row as an integer (`sqlite3_column_int64`); `nil` for no
    /// row or NULL.
    package func int64(_ sql: String) throws -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    /// Runs `body` between `BEGIN` and `COMMIT`; when it throws, rolls back and rethrows.
    package func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try executeScript("BEGIN")
        do {
            let result = try body()
            try executeScript("COMMIT")
            return result
        } catch {
            if !isAutocommit { try? executeScript("ROLLBACK") }
            throw error
        }
    }
}
