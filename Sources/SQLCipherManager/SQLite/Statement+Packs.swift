// MARK: - Binding a parameter pack

extension Statement {
    /// Binds each value of the pack at its index through its own
    /// ``DatabaseValueConvertible/bind(to:)``, after checking the count. Inlined at the call
    /// site, so specialised for the argument types: no existential, no array, no
    /// ``DatabaseValue`` for the built-in types. Every parameter is bound, so the previous
    /// bindings need no `sqlite3_clear_bindings`.
    @inlinable
    func bind<each Value: DatabaseValueConvertible>(pack values: repeat each Value) throws {
        var count = 0
        for _ in repeat (each Value).self { count += 1 }
        try checkArgumentCount(count)
        var index: Int32 = 0
        repeat try (each values).bind(to: DatabaseValueBinder(statement: self, index: Self.advance(&index)))
    }

    /// `index + 1`, stored back in `index`: the next parameter's 1-based index.
    @inlinable
    static func advance(_ index: inout Int32) -> Int32 {
        index += 1
        return index
    }

    /// Steps to the end (INSERT, UPDATE, DELETE, DDL).
    @usableFromInline
    func runToEnd() throws {
        while try step() {}
    }
}
