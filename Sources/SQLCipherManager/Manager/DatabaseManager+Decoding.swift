// MARK: - Named parameters, Decodable rows, required values
import SQLCipherCore
import SQLCipherQuery

extension DatabaseManager {
    /// Runs one statement with `:name`, `@name` or `$name` parameters bound by name, as the
    /// named `execute` of ``Database`` binds them (a key with or without its prefix, `nil` for NULL).
    ///
    /// ```swift
    /// try manager.execute("UPDATE note SET title = :title WHERE id = :id", arguments: ["title": "Hi", "id": 1])
    /// ```
    public func execute(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws {
        try writer { try $0.execute(sql, arguments: StatementArguments(arguments)) }
    }

    /// Every row of a query with parameters bound by name.
    public func fetchAll(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws -> [Row] {
        try query { try $0.fetchAll(sql, arguments: StatementArguments(arguments)) }
    }

    /// The first row of a query with parameters bound by name, or `nil`.
    public func fetchOne(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws -> Row? {
        try query { try $0.fetchOne(sql, arguments: StatementArguments(arguments)) }
    }

    /// Every row of a query decoded as `T` (see ``Row/decode(_:)``).
    ///
    /// ```swift
    /// struct Note: Decodable { var id: Int64; var title: String }
    /// let notes = try manager.fetchAll(Note.self, "SELECT id, title FROM note ORDER BY id")
    /// ```
    public func fetchAll<T: Decodable>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> [T] {
        try query { try $0.decodeAll(type, sql, .positional(arguments)) }
    }

    /// Every row of a query with parameters bound by name, decoded as `T`.
    public func fetchAll<T: Decodable>(
        _ type: T.Type, _ sql: String, arguments: [String: (any DatabaseValueConvertible)?]
    ) throws -> [T] {
        try query { try $0.decodeAll(type, sql, .named(arguments)) }
    }

    /// The first row of a query decoded as `T`, or `nil` when there is no row.
    public func fetchOne<T: Decodable>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> T? {
        try query { try $0.decodeFirst(type, sql, .positional(arguments)) }
    }

    /// The first row of a query with parameters bound by name decoded as `T`, or `nil`.
    public func fetchOne<T: Decodable>(
        _ type: T.Type, _ sql: String, arguments: [String: (any DatabaseValueConvertible)?]
    ) throws -> T? {
        try query { try $0.decodeFirst(type, sql, .named(arguments)) }
    }

    /// The first column of the first row as a `T`, or an ``SQLiteError`` that says why not (no
    /// row, NULL, a value of another type): see ``Database/decodeScalar(_:_:_:)``.
    public func decodeScalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> T {
        try query { try $0.decodeScalar(type, sql, .positional(arguments)) }
    }
}
