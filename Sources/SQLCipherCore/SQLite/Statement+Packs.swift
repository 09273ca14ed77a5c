// MARK: - Binding a parameter pack

// Every entry point that takes its arguments as a parameter pack binds them in its own body:
//
//     var index: Int32 = 0
//     repeat try (each values).bind(to: statement.binder(after: &index))
//
// Swift 6.3 copies each value of a pack into a temporary when the pack is handed on to another
// function (and once more in the loop), so forwarding the pack to a shared binding function cost
// a retain and a release of every String or Data it holds, plus the temporary's destruction
// through the runtime, a cost paid on every row of a bulk insert. Only the count, taken from
// the types alone, goes through a shared function.

extension Statement {
    /// The binder of the parameter after `index`, which it advances; the first one starts a
    /// new pass of the texts and blobs lent to SQLite (``LentBytes``).
    @inlinable
    package func binder(after index: inout Int32) -> DatabaseValueBinder {
        if index == 0 { startLending() }
        index += 1
        return DatabaseValueBinder(statement: self, index: index, lends: true)
    }

    /// Starts a pass of ``LentBytes``: the copies of the last pass are reused.
    @usableFromInline
    func startLending() { lent.startPass() }

    /// How many values a pack of these types holds, counted from the types alone (no value is
    /// copied); a constant once the caller is specialised.
    @inlinable
    package static func count<each Value>(of types: repeat (each Value).Type) -> Int {
        var count = 0
        for _ in repeat each types { count += 1 }
        return count
    }

    /// Steps to the end (INSERT, UPDATE, DELETE, DDL).
    @usableFromInline
    package func runToEnd() throws {
        while try step() {}
    }
}
