// MARK: - Cursors
import SQLCipherCore

extension Database {
    /// The rows of a query as a ``RowCursor``, stepped as you read them: nothing is collected,
    /// and each row is a ``RowView`` that reads its columns in place.
    ///
    /// ```swift
    /// let cursor = try db.fetchCursor("SELECT id, title FROM note WHERE id > ?", 10)
    /// while let row = try cursor.next() { print(row.int64(0), row.text(1) ?? "") }
    /// ```
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile or the arguments do not fit
    ///   (`range` for a wrong count), `misuse` once the database is closed.
    public func fetchCursor(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> RowCursor {
        try cursor(sql, .positional(arguments))
    }

    /// The rows of a query as a ``RowCursor``, with the arguments as values in order.
    public func fetchCursor(_ sql: String, arguments: [DatabaseValue]) throws -> RowCursor {
        try cursor(sql, .values(arguments))
    }

    /// The rows of a query as a ``RowCursor``, with `:name`, `@name` or `$name` parameters
    /// bound by name as the named `execute(_:arguments:)` binds them.
    public func fetchCursor(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws -> RowCursor {
        try cursor(sql, .named(arguments))
    }

    /// Every fetchCursor's path: a statement of the cursor's own, bound.
    package func cursor(_ sql: String, _ arguments: StatementArguments) throws -> RowCursor {
        let connection = try liveConnection(sql)
        let statement = try connection.leaseStatement(sql)
        do {
            try statement.bind(arguments)
        } catch {
            connection.endLease(statement)
            throw error
        }
        return RowCursor(statement: statement, connection: connection)
    }
}
