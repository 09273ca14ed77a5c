// MARK: - Decodable rows, required values
import SQLCipherCore

extension Database {
    // MARK: - Decodable rows

    /// Every row of a query decoded as `T` (see ``Row/decode(_:)``), read in place without
    /// building a ``Row`` per row; its arguments as a ``StatementArguments``.
    ///
    /// ```swift
    /// let notes = try db.fetchAll(Note.self, "SELECT id, title, body FROM note WHERE id > :id", arguments: [":id": 10])
    /// ```
    ///
    /// - Throws: ``SQLiteError``, naming the column, when a row does not decode.
    public func fetchAll<T: Decodable>(_ type: T.Type, _ sql: String, arguments: StatementArguments) throws -> [T] {
        try query(sql, arguments) { statement in try decodedRows(type, of: statement) }
    }

    /// Every row of a query decoded as `T`, with the arguments as a parameter pack (see
    /// `execute(_:_:)`).
    ///
    /// ```swift
    /// let notes = try db.fetchAll(Note.self, "SELECT id, title, body FROM note WHERE id > ?", 10)
    /// ```
    ///
    /// - Throws: ``SQLiteError``, naming the column, when a row does not decode.
    @inlinable
    public func fetchAll<T: Decodable, each Value: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ values: repeat each Value
    ) throws -> [T] {
        let statement = try statementToRebind(sql, count: Statement.count(of: repeat (each Value).self))
        var index: Int32 = 0
        repeat try (each values).bind(to: statement.binder(after: &index))
        return try stepped(statement) { try decodedRows(type, of: $0) }
    }

    /// The first row of a query decoded as `T`, or `nil` when there is no row; its arguments
    /// as a ``StatementArguments``.
    public func fetchOne<T: Decodable>(_ type: T.Type, _ sql: String, arguments: StatementArguments) throws -> T? {
        try query(sql, arguments) { statement in try decodedFirst(type, of: statement) }
    }

    /// The first row of a query decoded as `T`, or `nil` when there is no row, with the
    /// arguments as a parameter pack (see `execute(_:_:)`).
    @inlinable
    public func fetchOne<T: Decodable, each Value: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ values: repeat each Value
    ) throws -> T? {
        let statement = try statementToRebind(sql, count: Statement.count(of: repeat (each Value).self))
        var index: Int32 = 0
        repeat try (each values).bind(to: statement.binder(after: &index))
        return try stepped(statement) { try decodedFirst(type, of: $0) }
    }

    /// The first column of the first row as a `T`, or an error that says why not: unlike
    /// `scalar`, which returns `nil` for no row, NULL and an unconvertible value alike. The
    /// arguments are a ``StatementArguments``.
    ///
    /// - Throws: ``SQLiteError`` `notFound` when the query returns no row, `range` when it has
    ///   no column, `mismatch` for NULL (ask for `T?` to accept it) or a value that cannot be
    ///   read as `T`, with the SQL.
    public func decodeScalar<T: DatabaseValueConvertible>(_ type: T.Type, _ sql: String, arguments: StatementArguments) throws -> T {
        try query(sql, arguments) { statement in try decodedScalar(type, of: statement) }
    }

    /// The first column of the first row as a `T`, or an error that says why not, with the
    /// arguments as a parameter pack (see `execute(_:_:)`).
    ///
    /// ```swift
    /// let count = try db.decodeScalar(Int.self, "SELECT count(*) FROM note")
    /// let newest = try db.decodeScalar(String?.self, "SELECT max(title) FROM note WHERE id > ?", 10)  // NULL is nil
    /// ```
    ///
    /// - Throws: ``SQLiteError`` `notFound` when the query returns no row, `range` when it has
    ///   no column, `mismatch` for NULL (ask for `T?` to accept it) or a value that cannot be
    ///   read as `T`, with the SQL.
    @inlinable
    public func decodeScalar<T: DatabaseValueConvertible, each Value: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ values: repeat each Value
    ) throws -> T {
        let statement = try statementToRebind(sql, count: Statement.count(of: repeat (each Value).self))
        var index: Int32 = 0
        repeat try (each values).bind(to: statement.binder(after: &index))
        return try stepped(statement) { try decodedScalar(type, of: $0) }
    }

    // MARK: - Paths

    /// Every row of a bound statement decoded as `T`; the caller resets the statement.
    @usableFromInline
    func decodedRows<T: Decodable>(_ type: T.Type, of statement: Statement) throws -> [T] {
        let columns = StatementColumns(statement: statement, columnNames: statement.columnNames)
        let oneValue = RowDecoder<StatementColumns>.readsOneValue(type)
        var results: [T] = []
        while try statement.step() { results.append(try Self.decode(type, columns, oneValue: oneValue, sql: statement.sql)) }
        return results
    }

    /// The first row of a bound statement decoded as `T`, or `nil`; the caller resets it.
    @usableFromInline
    func decodedFirst<T: Decodable>(_ type: T.Type, of statement: Statement) throws -> T? {
        guard try statement.step() else { return nil }
        let columns = StatementColumns(statement: statement, columnNames: statement.columnNames)
        return try Self.decode(type, columns, oneValue: RowDecoder<StatementColumns>.readsOneValue(type), sql: statement.sql)
    }

    /// The first column of a bound statement's first row as a `T`; the caller resets it.
    @usableFromInline
    func decodedScalar<T: DatabaseValueConvertible>(_ type: T.Type, of statement: Statement) throws -> T {
        guard try statement.step() else {
            throw SQLiteError(extendedCode: .notFound, message: "the query returned no row", sql: statement.sql)
        }
        let columns = StatementColumns(statement: statement, columnNames: statement.columnNames)
        return try Self.withSQL(statement.sql) { try columns.read(type, at: columns.checkedIndex(0)) }
    }

    /// Every row decoded as `T` (the tests' path).
    func decodeAll<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments) throws -> [T] {
        try fetchAll(type, sql, arguments: arguments)
    }

    /// The first row decoded as `T` (the tests' path).
    func decodeFirst<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments) throws -> T? {
        try fetchOne(type, sql, arguments: arguments)
    }

    /// The first column decoded as `T` (the manager's calls).
    package func decodeScalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: StatementArguments
    ) throws -> T {
        try decodeScalar(type, sql, arguments: arguments)
    }

    /// Decodes the current row; a decoding error gets the query's SQL.
    private static func decode<T: Decodable>(_ type: T.Type, _ columns: StatementColumns, oneValue: Bool, sql: String) throws -> T {
        try withSQL(sql) { try RowDecoder.decode(type, from: columns, oneValue: oneValue) }
    }

    /// Runs `body`, adding `sql` to an ``SQLiteError`` that has none.
    private static func withSQL<R>(_ sql: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as SQLiteError where error.sql == nil {
            throw SQLiteError(extendedCode: error.extendedCode, message: error.message, sql: sql)
        }
    }
}
