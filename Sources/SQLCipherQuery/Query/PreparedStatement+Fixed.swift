// MARK: - One to four arguments
import SQLCipherCore

// PreparedStatement.execute's six forms: `execute(arguments:)` (literals, a bare nil, run-time
// arrays, named parameters), the parameter pack `execute(_:)` (typed values, any number, none
// included), and these four, the fast path of the typed call with one to four values: Swift
// prefers plain generic parameters to the pack, and binds them without copying a value (see
// Statement+Fixed.swift), texts and blobs lent to SQLite while it steps
// (Statement+Borrowed.swift). More values take the pack.

extension PreparedStatement {
    /// Binds one value (`sqlite3_bind_*`) and runs the statement to completion
    /// (`sqlite3_step`): the parameter-pack `execute(_:)` for one value, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 1 parameter, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<A: DatabaseValueConvertible>(_ a: A) throws {
        try checkBinding(count: 1)
        try statement.withBindings(a) { try run() }
    }

    /// Binds 2 values (`sqlite3_bind_*`) and runs the statement to completion
    /// (`sqlite3_step`): the parameter-pack `execute(_:)` for 2 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 2 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<A: DatabaseValueConvertible, B: DatabaseValueConvertible>(_ a: A, _ b: B) throws {
        try checkBinding(count: 2)
        try statement.withBindings(a, b) { try run() }
    }

    /// Binds 3 values (`sqlite3_bind_*`) and runs the statement to completion
    /// (`sqlite3_step`): the parameter-pack `execute(_:)` for 3 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 3 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible>(_ a: A, _ b: B, _ c: C)
        throws
    {
        try checkBinding(count: 3)
        try statement.withBindings(a, b, c) { try run() }
    }

    /// Binds 4 values (`sqlite3_bind_*`) and runs the statement to completion
    /// (`sqlite3_step`): the parameter-pack `execute(_:)` for 4 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 4 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible>(
        _ a: A, _ b: B, _ c: C, _ d: D
    ) throws {
        try checkBinding(count: 4)
        try statement.withBindings(a, b, c, d) { try run() }
    }
}
