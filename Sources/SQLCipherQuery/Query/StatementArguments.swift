// MARK: - StatementArguments
import SQLCipherCore

/// The three ways a call gives a statement its arguments, so that every `execute` and fetch
/// prepares, binds and steps along one path.
package enum StatementArguments {
    /// The Swift values of a variadic call, in order; each binds itself (no ``DatabaseValue``).
    case positional([(any DatabaseValueConvertible)?])
    /// Values in order.
    case values([DatabaseValue])
    /// `:name`, `@name`, `$name` parameters by name (see `Statement.bind(named:)`).
    case named([String: (any DatabaseValueConvertible)?])
}

extension Statement {
    /// Binds the arguments, whichever form they come in.
    package func bind(_ arguments: StatementArguments) throws {
        switch arguments {
        case .positional(let values): try bind(values)
        case .values(let values): try bind(values)
        case .named(let values): try bind(named: values)
        }
    }
}

extension Database {
    /// The cached statement for `sql` with `arguments` bound, on a connection that is still open.
    func boundStatement(_ sql: String, _ arguments: StatementArguments) throws -> Statement {
        let statement = try liveConnection(sql).cachedStatement(sql)
        try statement.bind(arguments)
        return statement
    }

    /// Runs one statement to its end.
    func run(_ sql: String, _ arguments: StatementArguments) throws {
        let statement = try boundStatement(sql, arguments)
        while try statement.step() {}
    }

    /// Hands the bound statement to `body`, which steps it, and resets it afterwards even when
    /// `body` throws, so an abandoned read releases its lock.
    package func query<R>(_ sql: String, _ arguments: StatementArguments, _ body: (Statement) throws -> R) throws -> R {
        let statement = try liveConnection(sql).cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try body(statement)
    }
}
