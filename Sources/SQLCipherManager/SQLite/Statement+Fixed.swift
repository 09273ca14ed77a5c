// MARK: - Binding a fixed number of values

// Database.execute and PreparedStatement.execute take one to eight values as plain generic
// parameters as well as a parameter pack. Swift 6.3 binds a pack in a loop over its elements
// that copies each value into a temporary through its value witnesses (a retain and a release
// of every String or Data) and calls its bind(to:) through the pack's metadata; plain generic
// parameters are specialised one by one, so the values bind straight from the caller's:
// about 720 instructions fewer per 8-value row of the seed's insert (callgrind, issue 12).
// More than eight values take the pack.

extension Statement {
    /// Binds `value` at the 1-based `index` through its own ``DatabaseValueConvertible/bind(to:)``.
    @inlinable
    func bind<A: DatabaseValueConvertible>(_ value: A, at index: Int32) throws {
        try value.bind(to: DatabaseValueBinder(statement: self, index: index))
    }

    /// Binds one value at index 1, after the statement has been checked to have one parameter.
    @inlinable
    func bind<A: DatabaseValueConvertible>(_ a: A) throws {
        try bind(a, at: 1)
    }

    /// Binds 2 values at indexes 1…2 (the first 1 as the 1-value `bind` does), after the
    /// statement has been checked to have 2 parameters.
    @inlinable
    func bind<A: DatabaseValueConvertible, B: DatabaseValueConvertible>(_ a: A, _ b: B) throws {
        try bind(a)
        try bind(b, at: 2)
    }

    /// Binds 3 values at indexes 1…3 (the first 2 as the 2-value `bind` does), after the
    /// statement has been checked to have 3 parameters.
    @inlinable
    func bind<A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible>(_ a: A, _ b: B, _ c: C) throws {
        try bind(a, b)
        try bind(c, at: 3)
    }

    /// Binds 4 values at indexes 1…4 (the first 3 as the 3-value `bind` does), after the
    /// statement has been checked to have 4 parameters.
    @inlinable
    func bind<A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible>(
        _ a: A, _ b: B, _ c: C, _ d: D
    ) throws {
        try bind(a, b, c)
        try bind(d, at: 4)
    }

    /// Binds 5 values at indexes 1…5 (the first 4 as the 4-value `bind` does), after the
    /// statement has been checked to have 5 parameters.
    @inlinable
    func bind<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible
    >(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) throws {
        try bind(a, b, c, d)
        try bind(e, at: 5)
    }

    /// Binds 6 values at indexes 1…6 (the first 5 as the 5-value `bind` does), after the
    /// statement has been checked to have 6 parameters.
    @inlinable
    func bind<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible, F: DatabaseValueConvertible
    >(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) throws {
        try bind(a, b, c, d, e)
        try bind(f, at: 6)
    }

    /// Binds 7 values at indexes 1…7 (the first 6 as the 6-value `bind` does), after the
    /// statement has been checked to have 7 parameters.
    @inlinable
    func bind<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible, F: DatabaseValueConvertible, G: DatabaseValueConvertible
    >(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) throws {
        try bind(a, b, c, d, e, f)
        try bind(g, at: 7)
    }

    /// Binds 8 values at indexes 1…8 (the first 7 as the 7-value `bind` does), after the
    /// statement has been checked to have 8 parameters.
    @inlinable
    func bind<
        A: DatabaseValueConvertible, B: DatabaseValueConvertible, C: DatabaseValueConvertible, D: DatabaseValueConvertible,
        E: DatabaseValueConvertible, F: DatabaseValueConvertible, G: DatabaseValueConvertible, H: DatabaseValueConvertible
    >(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) throws {
        try bind(a, b, c, d, e, f, g)
        try bind(h, at: 8)
    }
}
