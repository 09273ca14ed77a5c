// MARK: - Deprecated spellings (removed in the next release)

extension PasswordPolicy {
    /// Deprecated: use ``accepts(_:)`` ("valid" read as "the right password", which is
    /// ``DatabaseManager/isCurrentPassword(_:)``). Calls it.
    @available(*, deprecated, renamed: "accepts(_:)")
    public func isValid(_ password: String) -> Bool { accepts(password) }
}
