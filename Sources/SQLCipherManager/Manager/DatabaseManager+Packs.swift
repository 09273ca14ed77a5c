// MARK: - Arguments as a parameter pack
import SQLCipherCore
import SQLCipherQuery

extension DatabaseManager {
    /// Runs one statement with bound arguments, each a value of its own Swift type, under the
    /// manager's lock (see `Database.execute(_:_:)`: specialised for the argument types, no
    /// existential box or array per call). A call with a bare `nil` or no argument uses the
    /// variadic `execute(_:_:)`.
    @inlinable
    public func execute<each Value: DatabaseValueConvertible>(_ sql: String, _ values: repeat each Value) throws {
        try writer { try $0.execute(sql, repeat each values) }
    }

    /// The first row of a query, or `nil`, with the arguments as a parameter pack (see
    /// `execute(_:_:)`).
    @inlinable
    public func fetchOne<each Value: DatabaseValueConvertible>(_ sql: String, _ values: repeat each Value) throws -> Row? {
        try query { try $0.fetchOne(sql, repeat each values) }
    }

    /// The first column of the first row as a Swift type, or `nil`, with at least one argument,
    /// as a parameter pack (see `execute(_:_:)`).
    @inlinable
    public func scalar<T: DatabaseValueConvertible, First: DatabaseValueConvertible, each Value: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ first: First, _ values: repeat each Value
    ) throws -> T? {
        try query { try $0.scalar(type, sql, first, repeat each values) }
    }
}
