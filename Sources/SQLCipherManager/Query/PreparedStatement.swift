// MARK: - PreparedStatement

/// A statement compiled once (`sqlite3_prepare_v2`) and run many times with new arguments:
/// the fastest way to insert many rows or run many lookups.
///
/// ```swift
/// try manager.transaction { db in
///     let insert = try db.prepare("INSERT INTO note(id, title, score) VALUES (?, ?, ?)")
///     for note in notes {
///         try insert.execute(note.id, note.title, note.score)
///     }
/// }
/// ```
///
/// Arguments are generic (a parameter pack), so they are bound without boxing them in
/// existentials or collecting them in an array. The statement belongs to the ``Database`` that
/// prepared it: use it inside the same closure only. Between runs it keeps its last bindings
/// (each run rebinds every parameter); they are released with the statement.
public final class PreparedStatement {
    let statement: Statement
    private let connection: Connection

    /// The SQL text.
    public var sql: String { statement.sql }

    init(statement: Statement, connection: Connection) {
        self.statement = statement
        self.connection = connection
    }

    // MARK: - Running

    /// Binds `values` to the parameters, in order, and runs the statement to completion
    /// (INSERT, UPDATE, DELETE, DDL).
    ///
    /// - Throws: ``SQLiteError`` with code `range` when the number of values differs from the
    ///   number of parameters, and any error of the statement.
    public func execute<each Value: DatabaseValueConvertible>(_ values: repeat each Value) throws {
        try bind(repeat each values)
        defer { statement.resetKeepingBindings() }
        while try statement.step() {}
    }

    /// Binds `values` and calls `body` with each result row, as a ``RowView`` valid only during
    /// that call (copy what you keep).
    public func forEachRow<each Value: DatabaseValueConvertible>(
        _ values: repeat each Value, body: (RowView) throws -> Void
    ) throws {
        try bind(repeat each values)
        defer { statement.resetKeepingBindings() }
        let row = RowView(statement: statement)
        while try statement.step() { try body(row) }
    }

    /// Binds `values` and returns the first result row as a ``Row``, or `nil`.
    public func fetchOne<each Value: DatabaseValueConvertible>(_ values: repeat each Value) throws -> Row? {
        try bind(repeat each values)
        defer { statement.resetKeepingBindings() }
        guard try statement.step() else { return nil }
        return RowView(statement: statement).row
    }

    // MARK: - Binding

    private func bind<each Value: DatabaseValueConvertible>(_ values: repeat each Value) throws {
        guard !connection.isClosed else { throw DatabaseManagerError.notOpen }
        statement.resetKeepingBindings()
        var count: Int32 = 0
        for value in repeat each values {
            count += 1
            try statement.bind(value.databaseValue, at: count)
        }
        try statement.checkArgumentCount(Int(count))
    }
}

// A prepared statement wraps a non-thread-safe connection; it lives inside one closure.
@available(*, unavailable)
extension PreparedStatement: Sendable {}
