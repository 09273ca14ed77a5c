// MARK: - Equality of an underlying `any Error`

/// Whether two errors held as `any Error` (the `underlying` of
/// ``DatabaseManagerError/migrationFailed(version:lastGoodVersion:underlying:)`` and of
/// ``MigrationError/stepFailed(version:lastGoodVersion:underlying:)``) are the same error.
///
/// They must be of the same dynamic type. When that type is `Equatable`, its own `==` decides
/// (the existential is opened, so a ``SQLiteError`` compares its code, message and SQL); any other
/// error type compares by `String(describing:)`, the only view of its value every error has.
package func equalErrors(_ lhs: any Error, _ rhs: any Error) -> Bool {
    guard ObjectIdentifier(type(of: lhs)) == ObjectIdentifier(type(of: rhs)) else { return false }
    if let lhs = (lhs as Any) as? any Equatable { return lhs.isEqual(toError: rhs) }
    return String(describing: lhs) == String(describing: rhs)
}

extension Equatable {
    /// `self == other` when `other` is of this type, else `false`.
    fileprivate func isEqual(toError other: any Error) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
