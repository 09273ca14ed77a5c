// MARK: - Prepared statements and row views
import SQLCipherCore

extension Database {
    /// Compiles `sql` once for many runs: see ``PreparedStatement``.
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile.
    public func prepare(_ sql: String) throws -> PreparedStatement {
        PreparedStatement(statement: try liveConnection(sql).prepare(sql), connection: connection)
    }

    /// Calls `body` for each row as a ``RowView`` read in place, without building a ``Row`` per
    /// row: the fastest way to read many rows.
    public func forEachRowView(
        _ sql: String, arguments: [DatabaseValue] = [], _ body: (RowView) throws -> Void
    ) throws {
        let statement = try liveConnection(sql).cachedStatement(sql)
        // Reset even when `body` throws, so an abandoned read releases its lock.
        defer { statement.reset() }
        try statement.bind(arguments)
        let row = RowView(statement: statement)
        while try statement.step() { try body(row) }
    }
}
