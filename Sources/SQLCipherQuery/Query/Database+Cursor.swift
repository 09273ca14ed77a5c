// MARK: - Cursors
import SQLCipherCore

extension Database {
    /// The rows of a query as a ``RowCursor``, its arguments as a ``StatementArguments``
    /// (array or dictionary literal, or values built at run time): stepped as you read them,
    /// nothing collected, each row a ``RowView`` read in place.
    ///
    /// ```swift
    /// let cursor = try db.fetchCursor("SELECT id, title FROM note WHERE id > :id", arguments: [":id": 10])
    /// while let row = try cursor.next() { print(row.int64(0), row.text(1) ?? "") }
    /// ```
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile or the arguments do not fit
    ///   (`range`), `misuse` once the database is closed.
    public func fetchCursor(_ sql: String, arguments: StatementArguments) throws -> RowCursor {
        try cursor(sql, arguments)
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
