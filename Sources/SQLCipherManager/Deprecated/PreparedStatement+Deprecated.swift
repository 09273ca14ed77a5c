// MARK: - Deprecated spellings (removed in the next release)

extension PreparedStatement {
    /// Deprecated: use ``forEachRowView(_:body:)`` — every method that hands over a ``RowView``
    /// is named `forEachRowView`, and `forEachRow` always hands over a ``Row``. Calls it.
    @available(*, deprecated, renamed: "forEachRowView(_:body:)")
    public func forEachRow<each Value: DatabaseValueConvertible>(
        _ values: repeat each Value, body: (RowView) throws -> Void
    ) throws {
        try forEachRowView(repeat each values, body: body)
    }
}
