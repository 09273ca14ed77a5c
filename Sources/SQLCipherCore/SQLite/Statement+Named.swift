internal import CSQLCipher

// MARK: - Named parameters

extension Statement {
    /// Binds `:name`, `@name` and `$name` parameters from a dictionary whose keys are the names
    /// with or without their prefix (`"title"` or `":title"`), each value through its own
    /// ``DatabaseValueConvertible/bind(to:)`` (`nil` binds NULL). A name used twice in the SQL is
    /// one parameter (SQLite gives it one index) and takes one value.
    ///
    /// - Throws: ``SQLiteError`` `range` when a parameter has no value, when a key names no
    ///   parameter (a typo would otherwise bind nothing), or when the SQL has a positional `?`.
    package func bind(named arguments: [String: (any DatabaseValueConvertible)?]) throws {
        var used = 0
        lent.startPass()
        for (offset, name) in parameterNames.enumerated() {
            let index = Int32(offset + 1)
            guard let name, let prefix = name.first, prefix != "?" else {
                throw SQLiteError(
                    extendedCode: .range,
                    message: "parameter \(index) is positional (`?`): name every parameter (:name, @name or $name) "
                        + "to bind a dictionary, or pass the values in order",
                    sql: sql)
            }
            guard let slot = arguments.index(forKey: String(name.dropFirst())) ?? arguments.index(forKey: name) else {
                throw SQLiteError(extendedCode: .range, message: "no value for the parameter \(name)", sql: sql)
            }
            used += 1
            if let value = arguments[slot].value {
                try value.bind(to: DatabaseValueBinder(statement: self, index: index, lends: true))
            } else {
                try bindNull(at: index)
            }
        }
        guard used == arguments.count else { throw unknownNames(in: arguments) }
    }

    /// The `range` error for keys that name no parameter of the statement.
    private func unknownNames(in arguments: [String: (any DatabaseValueConvertible)?]) -> SQLiteError {
        let known = Set(parameterNames.compactMap { $0 }.flatMap { [$0, String($0.dropFirst())] })
        let unknown = arguments.keys.filter { !known.contains($0) }.sorted()
        let names = parameterNames.compactMap { $0 }
        return SQLiteError(
            extendedCode: .range,
            message: "no parameter named \(unknown.joined(separator: ", ")) in the statement (its parameters: "
                + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ")",
            sql: sql)
    }

    /// Each parameter's name with its prefix (`sqlite3_bind_parameter_name`), `nil` for `?`.
    func readParameterNames() -> [String?] {
        let count = sqlite3_bind_parameter_count(handle)
        guard count > 0 else { return [] }
        return (1...count).map { index in sqlite3_bind_parameter_name(handle, index).map { String(cString: $0) } }
    }
}
