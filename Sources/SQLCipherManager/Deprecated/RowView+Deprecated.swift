// MARK: - Deprecated spellings (removed in the next release)

extension RowView {
    /// Deprecated: use ``text(_:)`` (the library's word for SQLite's TEXT, as in
    /// ``DatabaseValue/text(_:)``). Calls it.
    @available(*, deprecated, renamed: "text(_:)")
    public func string(_ index: Int) -> String? { text(index) }
}
