// MARK: - One to eight arguments
import SQLCipherCore

// The same calls as the parameter-pack `execute(_:_:)`, with one to eight values as plain generic
// parameters: Swift prefers them to the pack, and binds them without copying a value (see
// Statement+Fixed.swift), texts and blobs lent to SQLite while it steps (Statement+Borrowed.swift). More values take the pack; a bare `nil`, the variadic overload.

extension Database {
    /// Runs one statement with one bound argument, a value of its own Swift type (`sqlite3_bind_*`,
    /// `sqlite3_step`): the parameter-pack `execute(_:_:)` for one value, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 1 parameter, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<A: DatabaseValueConvertible>(_ sql: String, _ a: A) throws {
        let statement = try statementToRebind(sql, count: 1)
        try statement.withBindings(a) { try statement.runToEnd() }
    }

    /// Runs one statement with 2 bound arguments, each a value of its own Swift type (`sqlite3_bind_*`,
    /// `sqlite3_step`): the parameter-pack `execute(_:_:)` for 2 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 2 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<A: DatabaseValueConvertible, B: DatabaseValueConvertible>(_ sql: String, _ a: A, _ b: B) throws {
        let statement = try statementToRebind(sql, count: 2)
        try statement.withBindings(a, b) { try statement.runToEnd() }
    }

    /// Runs one statement with 3 bound arguments, each a value of its own Swift type (`sqlite3_bind_*`,
    /// `sqlite3_step`): the parameter-pack `execute(_:_:)` for 3 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 3 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible>(
        _ sql: String, _ a: A, _ b: B, _ c: C
    ) throws {
        let statement = try statementToRebind(sql, count: 3)
        try statement.withBindings(a, b, c) { try statement.runToEnd() }
    }

    /// Runs one statement with 4 bound arguments, each a value of its own Swift type (`sqlite3_bind_*`,
    /// `sqlite3_step`): the parameter-pack `execute(_:_:)` for 4 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 4 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible>(
        _ sql: String, _ a: A, _ b: B, _ c: C, _ d: D
    ) throws {
        let statement = try statementToRebind(sql, count: 4)
        try statement.withBindings(a, b, c, d) { try statement.runToEnd() }
    }

    /// Runs one statement with 5 bound arguments, each a value of its own Swift type (`sqlite3_bind_*`,
    /// `sqlite3_step`): the parameter-pack `execute(_:_:)` for 5 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 5 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible
    >(_ sql: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E) throws {
        let statement = try statementToRebind(sql, count: 5)
        try statement.withBindings(a, b, c, d, e) { try statement.runToEnd() }
    }

    /// Runs one statement with 6 bound arguments, each a value of its own Swift type (`sqlite3_bind_*`,
    /// `sqlite3_step`): the parameter-pack `execute(_:_:)` for 6 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 6 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible, F: DatabaseValueConvertible
    >(_ sql: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) throws {
        let statement = try statementToRebind(sql, count: 6)
        try statement.withBindings(a, b, c, d, e, f) { try statement.runToEnd() }
    }

    /// Runs one statement with 7 bound arguments, each a value of its own Swift type (`sqlite3_bind_*`,
    /// `sqlite3_step`): the parameter-pack `execute(_:_:)` for 7 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 7 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible, F: DatabaseValueConvertible, G: DatabaseValueConvertible
    >(_ sql: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) throws {
        let statement = try statementToRebind(sql, count: 7)
        try statement.withBindings(a, b, c, d, e, f, g) { try statement.runToEnd() }
    }

    /// Runs one statement with 8 bound arguments, each a value of its own Swift type (`sqlite3_bind_*`,
    /// `sqlite3_step`): the parameter-pack `execute(_:_:)` for 8 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 8 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible, F: DatabaseValueConvertible, G: DatabaseValueConvertible, H: DatabaseValueConvertible
    >(_ sql: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) throws {
        let statement = try statementToRebind(sql, count: 8)
        try statement.withBindings(a, b, c, d, e, f, g, h) { try statement.runToEnd() }
    }
}
