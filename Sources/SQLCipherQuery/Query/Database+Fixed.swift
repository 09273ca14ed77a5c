// MARK: - One to four arguments
import SQLCipherCore

// Database.execute's six forms: `execute(_:arguments:)` (literals, a bare nil, run-time arrays,
// named parameters), the parameter pack `execute(_:_:)` (typed values, any number, none
// included), and these four, the fast path of the typed call with one to four values. Swift
// prefers plain generic parameters to the pack, and binds them without copying a value (see
// Statement+Fixed.swift), texts and blobs lent to SQLite while it steps
// (Statement+Borrowed.swift). More values take the pack.

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
}
