// MARK: - Arguments as a parameter pack
import SQLCipherCore

extension Database {
    /// Runs one statement with bound arguments, each a value of its own Swift type.
    ///
    /// ```swift
    /// try db.execute("INSERT INTO note(id, title, score) VALUES (?, ?, ?)", id, title, 4.5)
    /// ```
    ///
    /// The values are a parameter pack, so the call is specialised for their types: each binds
    /// itself (``DatabaseValueConvertible/bind(to:)``, `sqlite3_bind_*`) without an existential
    /// box or an array. A call with a bare `nil` (which has no type of its own) uses
    /// the variadic `execute(_:_:)` instead.
    ///
    /// - Throws: ``SQLiteError`` `range` when the number of values differs from the number of
    ///   parameters, `misuse` once the database is closed, and any error of the statement.
    @inlinable
    public func execute<each Value: DatabaseValueConvertible>(_ sql: String, _ values: repeat each Value) throws {
        let statement = try statementToRebind(sql, count: Statement.count(of: repeat (each Value).self))
        var index: Int32 = 0
        repeat try (each values).bind(to: statement.binder(after: &index))
        try statement.runToEnd()
    }

    /// The first row of a query, or `nil`, with the arguments as a parameter pack (see
    /// `execute(_:_:)`).
    @inlinable
    public func fetchOne<each Value: DatabaseValueConvertible>(_ sql: String, _ values: repeat each Value) throws -> Row? {
        let statement = try statementToRebind(sql, count: Statement.count(of: repeat (each Value).self))
        var index: Int32 = 0
        repeat try (each values).bind(to: statement.binder(after: &index))
        return try firstRow(of: statement)
    }

    /// The first column of the first row as a Swift type, or `nil`, with the arguments as a
    /// parameter pack (see `execute(_:_:)`).
    /// (At least one value: without any, the variadic `scalar(_:_:_:)` runs.)
    @inlinable
    public func scalar<T: DatabaseValueConvertible, First: DatabaseValueConvertible, each Value: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ first: First, _ values: repeat each Value
    ) throws -> T? {
        let row = try fetchOne(sql, first, repeat each values)
        return row.flatMap { $0.count > 0 ? $0.value(0, as: T.self) : nil }
    }

    /// The rows of a query as a ``RowCursor``, with the arguments as a parameter pack (see
    /// `execute(_:_:)`).
    @inlinable
    public func fetchCursor<each Value: DatabaseValueConvertible>(_ sql: String, _ values: repeat each Value) throws -> RowCursor {
        let statement = try leasedStatement(sql)
        do {
            try statement.checkArgumentCount(Statement.count(of: repeat (each Value).self))
            var index: Int32 = 0
            repeat try (each values).bind(to: statement.binder(after: &index))
        } catch {
            endLease(statement)
            throw error
        }
        return cursor(on: statement)
    }

    // MARK: - Paths

    /// The cached statement for `sql`, reset but keeping its old bindings, for a caller that
    /// rebinds every parameter (no `sqlite3_clear_bindings`); `misuse` once closed, `range`
    /// unless it has `count` parameters.
    @usableFromInline
    func statementToRebind(_ sql: String, count: Int) throws -> Statement {
        let statement = try liveConnection(sql).cachedStatement(sql, clearingBindings: false)
        try statement.checkArgumentCount(count)
        return statement
    }

    /// A statement of its own for a cursor (see `Connection.leaseStatement`).
    @usableFromInline
    func leasedStatement(_ sql: String) throws -> Statement {
        try liveConnection(sql).leaseStatement(sql)
    }

    /// Gives back a leased statement whose binding failed.
    @usableFromInline
    package func endLease(_ statement: Statement) { connection.endLease(statement) }

    /// The cursor that steps a leased, bound statement.
    @usableFromInline
    func cursor(on statement: Statement) -> RowCursor { RowCursor(statement: statement, connection: connection) }

    /// Steps a bound statement once and copies its first row, resetting it even on error.
    @usableFromInline
    func firstRow(of statement: Statement) throws -> Row? {
        defer { statement.resetKeepingBindings() }
        guard try statement.step() else { return nil }
        return statement.row()
    }
}
