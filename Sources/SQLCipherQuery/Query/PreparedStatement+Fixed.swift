// MARK: - One to eight arguments
import SQLCipherCore

// The same call as the parameter-pack `execute(_:)`, with one to eight values as plain generic
// parameters: Swift prefers them to the pack, and binds them without copying a value (see
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

    /// Binds 5 values (`sqlite3_bind_*`) and runs the statement to completion
    /// (`sqlite3_step`): the parameter-pack `execute(_:)` for 5 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 5 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible
    >(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) throws {
        try checkBinding(count: 5)
        try statement.withBindings(a, b, c, d, e) { try run() }
    }

    /// Binds 6 values (`sqlite3_bind_*`) and runs the statement to completion
    /// (`sqlite3_step`): the parameter-pack `execute(_:)` for 6 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 6 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible, F: DatabaseValueConvertible
    >(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) throws {
        try checkBinding(count: 6)
        try statement.withBindings(a, b, c, d, e, f) { try run() }
    }

    /// Binds 7 values (`sqlite3_bind_*`) and runs the statement to completion
    /// (`sqlite3_step`): the parameter-pack `execute(_:)` for 7 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 7 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible, F: DatabaseValueConvertible, G: DatabaseValueConvertible
    >(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) throws {
        try checkBinding(count: 7)
        try statement.withBindings(a, b, c, d, e, f, g) { try run() }
    }

    /// Binds 8 values (`sqlite3_bind_*`) and runs the statement to completion
    /// (`sqlite3_step`): the parameter-pack `execute(_:)` for 8 values, specialised without a loop.
    ///
    /// - Throws: ``SQLiteError`` `range` unless the statement has 8 parameters, `misuse` once the
    ///   database is closed, and any error of the statement.
    @inlinable
    public func execute<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible, F: DatabaseValueConvertible, G: DatabaseValueConvertible, H: DatabaseValueConvertible
    >(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) throws {
        try checkBinding(count: 8)
        try statement.withBindings(a, b, c, d, e, f, g, h) { try run() }
    }
}
