// MARK: - Prepared statements and row views
import SQLCipherCore

extension Database {
    /// Compiles `sql` once for many runs: see ``PreparedStatement``.
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile.
    public func prepare(_ sql: String) throws -> PreparedStatement {
        PreparedStatement(statement: try liveConnection(sql).prepare(sql), connection: connection)
    }

    /// Calls `body` for each row as a ``RowView`` read in place, valid during that call, without
    /// building a ``Row`` per row: the fastest way to read many rows (``RowView/row`` copies one
    /// to keep). Its arguments are a ``StatementArguments`` (none by default).
    /// ``fetchCursor(_:arguments:)`` hands out the same rows one ``RowCursor/next()`` at a time.
    public func forEachRow(
        _ sql: String, arguments: StatementArguments = [], _ body: (RowView) throws -> Void
    ) throws {
        let statement = try liveConnection(sql).cachedStatement(sql)
        // Reset even when `body` throws, so an abandoned read releases its lock.
        defer { statement.reset() }
        try statement.bind(arguments)
        let count = statement.columnCount
        while try statement.step() { try body(RowView(statement: statement, count: count)) }
    }
}
