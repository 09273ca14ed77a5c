// MARK: - StatementArguments
import SQLCipherCore

/// The arguments of a statement, in order or by name, written as an array or a dictionary
/// literal: what every `arguments:` parameter takes.
///
/// ```swift
/// try db.execute("INSERT INTO note(id, title, body) VALUES (?, ?, ?)", arguments: [1, "Hello", nil])
/// try db.execute("UPDATE note SET title = :title WHERE id = :id", arguments: [":id": 1, ":title": "Hi"])
/// let rows = try db.fetchAll("SELECT * FROM note WHERE id IN (?, ?)", arguments: StatementArguments(ids))
/// ```
///
/// An array binds its values to the parameters in order (`?`, `?NNN`); `nil` binds NULL. A
/// dictionary binds `:name`, `@name` and `$name` parameters by name; a key may carry the prefix
/// or not (`"title"` and `":title"` both bind `:title`). Any ``DatabaseValueConvertible`` value
/// fits (numbers, `Bool`, `String`, `Data`, `Date`, `UUID`, `URL`, `Decimal`, ``DatabaseValue``,
/// optionals of them, your own types), and each binds itself (``DatabaseValueConvertible/bind(to:)``)
/// without building a ``DatabaseValue`` first.
///
/// When the values' types are known where you call, the typed form (`db.execute(sql, id, title)`)
/// binds them without boxing each one; `arguments:` is for a bare `nil`, values of mixed or
/// unknown types, arrays and dictionaries built at run time, and named parameters.
///
/// A call that binds them throws ``SQLiteError`` `range` when the number of values differs from
/// the number of parameters, when a named parameter has no value or a key names no parameter, or
/// when a dictionary meets a positional `?`; nothing is run then.
public struct StatementArguments: Sendable {
    /// The forms the values come in; each binds along its own path.
    package enum Storage: Sendable {
        /// Swift values in order; each binds itself (no ``DatabaseValue``).
        case positional([(any DatabaseValueConvertible)?])
        /// Values in order.
        case values([DatabaseValue])
        /// Values by parameter name, the prefix optional.
        case named([String: (any DatabaseValueConvertible)?])
    }

    package let storage: Storage

    init(storage: Storage) { self.storage = storage }

    /// No argument: for a statement without parameters.
    public init() { storage = .positional([]) }

    /// Values in order, `nil` for NULL, built at run time.
    ///
    /// ```swift
    /// let ids: [Int64] = [3, 5, 8]
    /// let marks = ids.map { _ in "?" }.joined(separator: ", ")
    /// let notes = try db.fetchAll("SELECT * FROM note WHERE id IN (\(marks))", arguments: StatementArguments(ids))
    /// ```
    public init(_ values: some Sequence<(any DatabaseValueConvertible)?>) {
        storage = .positional(Array(values))
    }

    /// Values in order, each of one type, built at run time.
    public init<Value: DatabaseValueConvertible>(_ values: some Sequence<Value>) {
        storage = .positional(values.map { $0 })
    }

    /// ``DatabaseValue``s in order, built at run time.
    public init(_ values: [DatabaseValue]) {
        storage = .values(values)
    }

    /// Values by parameter name (the prefix `:`, `@` or `$` optional), `nil` for NULL, built at
    /// run time.
    public init(_ values: [String: (any DatabaseValueConvertible)?]) {
        storage = .named(values)
    }

    /// ``DatabaseValue``s by parameter name (the prefix `:`, `@` or `$` optional), built at run
    /// time.
    public init(_ values: [String: DatabaseValue]) {
        storage = .named(values.mapValues { $0 })
    }

    /// The number of values.
    public var count: Int {
        switch storage {
        case .positional(let values): values.count
        case .values(let values): values.count
        case .named(let values): values.count
        }
    }

    /// `true` when there is no value.
    public var isEmpty: Bool { count == 0 }

    /// Swift values in order (the manager's calls).
    package static func positional(_ values: [(any DatabaseValueConvertible)?]) -> StatementArguments {
        StatementArguments(storage: .positional(values))
    }

    /// ``DatabaseValue``s in order (the record writes).
    package static func values(_ values: [DatabaseValue]) -> StatementArguments {
        StatementArguments(storage: .values(values))
    }

    /// Values by name (the manager's dictionary calls).
    package static func named(_ values: [String: (any DatabaseValueConvertible)?]) -> StatementArguments {
        StatementArguments(storage: .named(values))
    }
}

extension StatementArguments: ExpressibleByArrayLiteral {
    /// Values in order, `nil` for NULL: `[1, "Hello", nil, data]`.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        storage = .positional(elements)
    }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    /// Values by parameter name, `nil` for NULL: `[":id": 3, ":title": "Hello"]`. A key given
    /// twice keeps its last value.
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        storage = .named(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension Statement {
    /// Binds the arguments, whichever form they come in, after checking their count.
    package func bind(_ arguments: StatementArguments) throws {
        switch arguments.storage {
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
