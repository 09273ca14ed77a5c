// MARK: - Arguments as a parameter pack
import SQLCipherCore

// Every query of Database comes in two forms (execute has four more, Database+Fixed.swift):
// - `arguments: StatementArguments` (Database.swift): array and dictionary literals, a bare
//   `nil`, values of mixed or unknown types, arrays built at run time, named parameters;
// - the parameter pack below, `(sql, a, b, …)`: the values' own types known where one calls,
//   specialised for them, each value binding itself without a box or an array; with no
//   value, it is also the call without arguments, `db.execute("…")`.

extension Database {
    /// Runs one statement with bound arguments, each a value of its own Swift type; with none,
    /// a statement without parameters.
    ///
    /// ```swift
    /// try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT, score REAL)")
    /// try db.execute("INSERT INTO note(id, title, score) VALUES (?, ?, ?)", id, title, 4.5)
    /// ```
    ///
    /// The values are a parameter pack, so the call is specialised for their types: each binds
    /// itself (``DatabaseValueConvertible/bind(to:)``, `sqlite3_bind_*`) without an existential
    /// box or an array. A bare `nil` has no type of its own: pass it in
    /// `execute(_:arguments:)`'s array literal instead (`arguments: [title, nil]`).
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

    /// Every row of a query, with the arguments as a parameter pack (see `execute(_:_:)`) and
    /// the rows as ``fetchAll(_:arguments:)`` builds them.
    @inlinable
    public func fetchAll<each Value: DatabaseValueConvertible>(_ sql: String, _ values: repeat each Value) throws -> [Row] {
        let statement = try statementToRebind(sql, count: Statement.count(of: repeat (each Value).self))
        var index: Int32 = 0
        repeat try (each values).bind(to: statement.binder(after: &index))
        return try stepped(statement) { try allRows(of: $0) }
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

    /// The first column of the first row as a Swift type, or `nil` (no row, NULL or an
    /// unconvertible value), with the arguments as a parameter pack (see `execute(_:_:)`).
    ///
    /// ```swift
    /// let count = try db.scalar(Int.self, "SELECT count(*) FROM note WHERE score > ?", 3.5)
    /// ```
    @inlinable
    public func scalar<T: DatabaseValueConvertible, each Value: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ values: repeat each Value
    ) throws -> T? {
        let row = try fetchOne(sql, repeat each values)
        return row.flatMap { $0.count > 0 ? $0.value(0, as: T.self) : nil }
    }

    /// The rows of a query as a ``RowCursor``, with the arguments as a parameter pack (see
    /// `execute(_:_:)`): stepped as you read them, nothing collected, each row a ``RowView``
    /// read in place.
    ///
    /// ```swift
    /// let cursor = try db.fetchCursor("SELECT id, title FROM note WHERE id > ?", 10)
    /// while let row = try cursor.next() { print(row.int64(0), row.text(1) ?? "") }
    /// ```
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile or the arguments do not fit
    ///   (`range` for a wrong count), `misuse` once the database is closed.
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

    /// Runs `body`, which steps the bound statement, and resets it afterwards even on error.
    @usableFromInline
    func stepped<R>(_ statement: Statement, _ body: (Statement) throws -> R) throws -> R {
        defer { statement.resetKeepingBindings() }
        return try body(statement)
    }

    /// Steps a bound statement once and copies its first row, resetting it even on error.
    @usableFromInline
    func firstRow(of statement: Statement) throws -> Row? {
        defer { statement.resetKeepingBindings() }
        guard try statement.step() else { return nil }
        return statement.row()
    }
}
