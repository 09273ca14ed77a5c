// MARK: - Binding a fixed number of values

// Database.execute and PreparedStatement.execute take one to four values as plain generic
// parameters as well as a parameter pack. Swift 6.3 binds a pack in a loop over its elements
// that copies each value into a temporary through its value witnesses (a retain and a release
// of every String or Data) and calls its bind(to:) through the pack's metadata; plain generic
// parameters are specialised one by one, so the values bind straight from the caller's.
// More than four values take the pack. The one-to-four chain, which lends texts and blobs
// to SQLite while the statement steps, is `withBindings` (Statement+Borrowed.swift).

extension Statement {
    /// Binds `value` at the 1-based `index` through its own ``DatabaseValueConvertible/bind(to:)``.
    @inlinable
    package func bind<A: DatabaseValueConvertible>(_ value: A, at index: Int32) throws {
        try value.bind(to: DatabaseValueBinder(statement: self, index: index))
    }
}
