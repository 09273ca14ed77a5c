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
    @inlinable
    public func execute<each Value: DatabaseValueConvertible>(_ values: repeat each Value) throws {
        try Self.withValues(repeat each values, body: { try run($0) })
    }

    /// Binds `values` and calls `body` with each result row, as a ``RowView`` valid only during
    /// that call (copy what you keep).
    @inlinable
    public func forEachRow<each Value: DatabaseValueConvertible>(
        _ values: repeat each Value, body: (RowView) throws -> Void
    ) throws {
        try Self.withValues(repeat each values, body: { try query($0, body) })
    }

    /// Binds `values` and returns the first result row as a ``Row``, or `nil`.
    @inlinable
    public func fetchOne<each Value: DatabaseValueConvertible>(_ values: repeat each Value) throws -> Row? {
        try Self.withValues(repeat each values, body: { try first($0) })
    }

    // MARK: - Binding

    /// Converts the values into a stack buffer (inlined at the call site, so specialised for
    /// the argument types: no existential, no array) and passes it to `body`.
    @inlinable
    static func withValues<each Value: DatabaseValueConvertible, Result>(
        _ values: repeat each Value, body: (UnsafeBufferPointer<DatabaseValue>) throws -> Result
    ) throws -> Result {
        var count = 0
        for _ in repeat each values { count += 1 }
        return try withUnsafeTemporaryAllocation(of: DatabaseValue.self, capacity: max(count, 1)) { buffer in
            guard let base = buffer.baseAddress else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
            var initialized = 0
            for value in repeat each values {
                (base + initialized).initialize(to: value.databaseValue)
                initialized += 1
            }
            defer { base.deinitialize(count: initialized) }
            return try body(UnsafeBufferPointer(start: base, count: initialized))
        }
    }

    @usableFromInline
    func run(_ values: UnsafeBufferPointer<DatabaseValue>) throws {
        try bind(values)
        defer { statement.resetKeepingBindings() }
        while try statement.step() {}
    }

    @usableFromInline
    func query(_ values: UnsafeBufferPointer<DatabaseValue>, _ body: (RowView) throws -> Void) throws {
        try bind(values)
        defer { statement.resetKeepingBindings() }
        let row = RowView(statement: statement)
        while try statement.step() { try body(row) }
    }

    @usableFromInline
    func first(_ values: UnsafeBufferPointer<DatabaseValue>) throws -> Row? {
        try bind(values)
        defer { statement.resetKeepingBindings() }
        guard try statement.step() else { return nil }
        return RowView(statement: statement).row
    }

    /// Binds every value. The statement is always reset after a run (`defer`), so the previous
    /// bindings are simply overwritten: no `sqlite3_clear_bindings` per run.
    private func bind(_ values: UnsafeBufferPointer<DatabaseValue>) throws {
        guard !connection.isClosed else { throw DatabaseManagerError.notOpen }
        try statement.checkArgumentCount(values.count)
        for (offset, value) in values.enumerated() {
            try statement.bind(value, at: Int32(offset + 1))
        }
    }
}

// A prepared statement wraps a non-thread-safe connection; it lives inside one closure.
@available(*, unavailable)
extension PreparedStatement: Sendable {}
