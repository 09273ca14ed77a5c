// MARK: - Named parameters, Decodable rows, required values
import SQLCipherCore

extension Database {
    /// Runs one statement with `:name`, `@name` or `$name` parameters bound by name.
    ///
    /// ```swift
    /// try db.execute("INSERT INTO note(title, body) VALUES (:title, :body)",
    ///                arguments: ["title": "Hello", "body": nil])
    /// ```
    ///
    /// A key may carry the prefix or not (`"title"` and `":title"` both bind `:title`); `nil`
    /// binds NULL.
    ///
    /// - Throws: ``SQLiteError`` `range` when a parameter has no value, a key names no parameter
    ///   (a typo binds nothing), or the SQL also has a positional `?`.
    public func execute(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws {
        try run(sql, .named(arguments))
    }

    /// Every row of a query with parameters bound by name, as the named `execute` binds them.
    public func fetchAll(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws -> [Row] {
        try fetchAll(sql, .named(arguments))
    }

    /// The first row of a query with parameters bound by name, or `nil`.
    public func fetchOne(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws -> Row? {
        try fetchOne(sql, .named(arguments))
    }

    // MARK: - Decodable rows

    /// Every row of a query decoded as `T` (see ``Row/decode(_:)``), read in place without
    /// building a ``Row`` per row.
    ///
    /// ```swift
    /// let notes = try db.fetchAll(Note.self, "SELECT id, title, body FROM note WHERE id > ?", 10)
    /// ```
    ///
    /// - Throws: ``SQLiteError``, naming the column, when a row does not decode.
    public func fetchAll<T: Decodable>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> [T] {
        try decodeAll(type, sql, .positional(arguments))
    }

    /// Every row of a query with parameters bound by name, decoded as `T`.
    public func fetchAll<T: Decodable>(
        _ type: T.Type, _ sql: String, arguments: [String: (any DatabaseValueConvertible)?]
    ) throws -> [T] {
        try decodeAll(type, sql, .named(arguments))
    }

    /// The first row of a query decoded as `T`, or `nil` when there is no row.
    public func fetchOne<T: Decodable>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> T? {
        try decodeFirst(type, sql, .positional(arguments))
    }

    /// The first row of a query with parameters bound by name decoded as `T`, or `nil`.
    public func fetchOne<T: Decodable>(
        _ type: T.Type, _ sql: String, arguments: [String: (any DatabaseValueConvertible)?]
    ) throws -> T? {
        try decodeFirst(type, sql, .named(arguments))
    }

    /// The first column of the first row as a `T`, or an error that says why not: unlike
    /// ``scalar(_:_:_:)``, which returns `nil` for no row, NULL and an unconvertible value alike.
    ///
    /// ```swift
    /// let count = try db.decodeScalar(Int.self, "SELECT count(*) FROM note")
    /// let newest = try db.decodeScalar(String?.self, "SELECT max(title) FROM note")  // NULL is nil
    /// ```
    ///
    /// - Throws: ``SQLiteError`` `notFound` when the query returns no row, `range` when it has
    ///   no column, `mismatch` for NULL (ask for `T?` to accept it) or a value that cannot be
    ///   read as `T`, with the SQL.
    public func decodeScalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> T {
        try decodeScalar(type, sql, .positional(arguments))
    }

    // MARK: - Paths

    func decodeAll<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments) throws -> [T] {
        try query(sql, arguments) { statement in
            let columns = StatementColumns(statement: statement, columnNames: statement.columnNames)
            let oneValue = RowDecoder<StatementColumns>.readsOneValue(type)
            var results: [T] = []
            while try statement.step() { results.append(try Self.decode(type, columns, oneValue: oneValue, sql: sql)) }
            return results
        }
    }

    func decodeFirst<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments) throws -> T? {
        try query(sql, arguments) { statement in
            guard try statement.step() else { return nil }
            let columns = StatementColumns(statement: statement, columnNames: statement.columnNames)
            return try Self.decode(type, columns, oneValue: RowDecoder<StatementColumns>.readsOneValue(type), sql: sql)
        }
    }

    package func decodeScalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: StatementArguments
    ) throws -> T {
        try query(sql, arguments) { statement in
            guard try statement.step() else {
                throw SQLiteError(extendedCode: .notFound, message: "the query returned no row", sql: sql)
            }
            let columns = StatementColumns(statement: statement, columnNames: statement.columnNames)
            return try Self.withSQL(sql) { try columns.read(type, at: columns.checkedIndex(0)) }
        }
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
