// MARK: - Deprecated spellings (removed in the next release)

extension ScriptStatement {
    /// Deprecated: use ``forEachRowView(_:)`` — every method that hands over a ``RowView`` is
    /// named `forEachRowView`, and `forEachRow` always hands over a ``Row``. Calls it.
    @available(*, deprecated, renamed: "forEachRowView(_:)")
    public func forEachRow(_ body: (RowView) throws -> Void) throws {
        try forEachRowView(body)
    }
}
