// The tests' shorthand for one statement on a manager: the query calls that live on
// `Database` in the library, each run the way the tests have always run them (a write on the
// writer in autocommit, a read on the pool or the current closure's connection), so a test
// says `try manager.execute(…)` where an app says `try manager.writeSync { db in … }`.
@testable import SQLCipherManager
@testable import SQLCipherQuery

extension DatabaseManager {
    /// One statement with bound arguments, on the writer.
    public func execute(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws {
        try writer { try $0.execute(sql, arguments: StatementArguments(arguments)) }
    }

    /// One statement, its arguments a parameter pack, on the writer.
    public func execute<each Value: DatabaseValueConvertible>(_ sql: String, _ values: repeat each Value) throws {
        try writer { try $0.execute(sql, repeat each values) }
    }

    /// One statement with named arguments, on the writer.
    public func execute(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws {
        try writer { try $0.execute(sql, arguments: StatementArguments(arguments)) }
    }

    /// A script of several statements, on the writer.
    public func executeScript(_ sql: String) throws {
        try writer { try $0.executeScript(sql) }
    }

    /// Every row of a query.
    public func fetchAll(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> [Row] {
        let values = arguments.map { $0?.databaseValue ?? .null }
        return try query { try $0.fetchAll(sql, arguments: StatementArguments(values)) }
    }

    /// Every row of a query with named arguments.
    public func fetchAll(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws -> [Row] {
        try query { try $0.fetchAll(sql, arguments: StatementArguments(arguments)) }
    }

    /// Every row of a query, decoded.
    public func fetchAll<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> [T] {
        try query { try $0.decodeAll(type, sql, .positional(arguments)) }
    }

    /// Every row of a query with named arguments, decoded.
    public func fetchAll<T: Decodable>(_ type: T.Type, _ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws -> [T] {
        try query { try $0.decodeAll(type, sql, .named(arguments)) }
    }

    /// The first row of a query, or `nil`.
    public func fetchOne(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> Row? {
        try query { try $0.fetchOne(sql, arguments: StatementArguments(arguments)) }
    }

    /// The first row of a query, its arguments a parameter pack.
    public func fetchOne<each Value: DatabaseValueConvertible>(_ sql: String, _ values: repeat each Value) throws -> Row? {
        try query { try $0.fetchOne(sql, repeat each values) }
    }

    /// The first row of a query with named arguments.
    public func fetchOne(_ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws -> Row? {
        try query { try $0.fetchOne(sql, arguments: StatementArguments(arguments)) }
    }

    /// The first row of a query, decoded.
    public func fetchOne<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> T? {
        try query { try $0.decodeFirst(type, sql, .positional(arguments)) }
    }

    /// The first row of a query with named arguments, decoded.
    public func fetchOne<T: Decodable>(_ type: T.Type, _ sql: String, arguments: [String: (any DatabaseValueConvertible)?]) throws -> T? {
        try query { try $0.decodeFirst(type, sql, .named(arguments)) }
    }

    /// The first column of the first row, or `nil`.
    public func scalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> T? {
        try query { try $0.fetchOne(sql, arguments: StatementArguments(arguments)).flatMap { $0.value(0, as: T.self) } }
    }

    /// The first column of the first row, its arguments a parameter pack.
    public func scalar<T: DatabaseValueConvertible, First: DatabaseValueConvertible, each Value: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ first: First, _ values: repeat each Value
    ) throws -> T? {
        try query { try $0.scalar(type, sql, first, repeat each values) }
    }

    /// The first column of the first row, or the error that says why there is none.
    public func decodeScalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) throws -> T {
        try query { try $0.decodeScalar(type, sql, .positional(arguments)) }
    }

    /// Observes every row of a query.
    public func observeAll(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) -> DatabaseObservation<[Row]> {
        observe { db in try db.fetchAll(sql, arguments: StatementArguments(arguments)) }
    }

    /// Observes every row of a query, decoded.
    public func observeAll<T: Decodable & Sendable>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) -> DatabaseObservation<[T]> {
        observe { db in try db.decodeAll(type, sql, .positional(arguments)) }
    }

    /// Observes the first column of the first row.
    public func observeScalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
    ) -> DatabaseObservation<T?> {
        observe { db in try db.fetchOne(sql, arguments: StatementArguments(arguments)).flatMap { $0.value(0, as: T.self) } }
    }
}
