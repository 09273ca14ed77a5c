// MARK: - PreparedStatement
import SQLCipherCore

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
/// existentials or collecting them in an array; each one binds itself
/// (``DatabaseValueConvertible/bind(to:)``). The statement belongs to the ``Database`` that
/// prepared it: use it inside the same closure only. Between runs it keeps its last bindings
/// (each run rebinds every parameter); they are released with the statement.
public final class PreparedStatement {
    @usableFromInline let statement: Statement
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
    @inlinable
    public func execute<each Value: DatabaseValueConvertible>(_ values: repeat each Value) throws {
        try checkBinding(count: Statement.count(of: repeat (each Value).self))
        var index: Int32 = 0
        repeat try (each values).bind(to: statement.binder(after: &index))
        try run()
    }

    /// Binds `arguments` (array or dictionary literal, or values built at run time; see
    /// ``StatementArguments``) and runs the statement to completion.
    ///
    /// ```swift
    /// try insert.execute(arguments: [note.id, note.title, nil])
    /// ```
    ///
    /// - Throws: ``SQLiteError`` `range` when the arguments do not fit the parameters, `misuse`
    ///   once the database is closed, and any error of the statement.
    public func execute(arguments: StatementArguments) throws {
        try checkOpen()
        try statement.bind(arguments)
        try run()
    }

    /// Binds `values` and calls `body` with each result row, as a ``RowView`` valid only during
    /// that call (copy what you keep), as ``Database/forEachRow(_:arguments:_:)`` does.
    ///
    /// `body` has a label because Swift requires one after a parameter pack; with a trailing
    /// closure it is not written: `try lookup.forEachRow(id) { row in … }`.
    @inlinable
    public func forEachRow<each Value: DatabaseValueConvertible>(
        _ values: repeat each Value, body: (RowView) throws -> Void
    ) throws {
        try checkBinding(count: Statement.count(of: repeat (each Value).self))
        var index: Int32 = 0
        repeat try (each values).bind(to: statement.binder(after: &index))
        try query(body)
    }

    /// Binds `values` and returns the first result row as a ``Row``, or `nil`.
    @inlinable
    public func fetchOne<each Value: DatabaseValueConvertible>(_ values: repeat each Value) throws -> Row? {
        try checkBinding(count: Statement.count(of: repeat (each Value).self))
        var index: Int32 = 0
        repeat try (each values).bind(to: statement.binder(after: &index))
        return try first()
    }

    // MARK: - Binding

    // Each entry point binds its values in its own body (see Statement+Packs.swift): each value
    // through its own ``DatabaseValueConvertible/bind(to:)``, specialised for the argument
    // types (no existential, no array, no ``DatabaseValue`` for the built-in types). The
    // statement is always reset after a run (`defer`), so the previous bindings are simply
    // overwritten: no `sqlite3_clear_bindings` per run.

    /// Throws ``SQLiteError`` `misuse` once the database is closed (no C call is made), `range`
    /// unless the statement has `count` parameters.
    @usableFromInline
    package func checkBinding(count: Int) throws {
        try checkOpen()
        try statement.checkArgumentCount(count)
    }

    /// Throws ``SQLiteError`` `misuse` once the database is closed (no C call is made).
    @usableFromInline
    func checkOpen() throws {
        guard !connection.isClosed else { throw SQLiteError.databaseClosed(sql: statement.sql) }
    }

    // MARK: - Stepping

    @usableFromInline
    func run() throws {
        defer { statement.resetKeepingBindings() }
        while try statement.step() {}
    }

    @usableFromInline
    package func query(_ body: (RowView) throws -> Void) throws {
        defer { statement.resetKeepingBindings() }
        let count = statement.columnCount
        while try statement.step() { try body(RowView(statement: statement, count: count)) }
    }

    @usableFromInline
    func first() throws -> Row? {
        defer { statement.resetKeepingBindings() }
        guard try statement.step() else { return nil }
        return statement.row()
    }
}

// A prepared statement wraps a non-thread-safe connection; it lives inside one closure.
@available(*, unavailable)
extension PreparedStatement: Sendable {}
