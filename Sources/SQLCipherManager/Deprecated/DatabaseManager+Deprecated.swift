import Foundation

// MARK: - Deprecated spellings (removed in the next release)

extension DatabaseManager {
    /// Deprecated: use ``rekey(password:options:progress:)`` — every flow names the secret by
    /// its label, as ``create(password:)`` and ``open(password:)`` do. Calls it.
    @available(*, deprecated, renamed: "rekey(password:options:progress:)")
    public func rekey(to newPassword: String, options: CipherOptions? = nil, progress: ((Double) -> Void)? = nil) throws {
        try rekey(password: newPassword, options: options, progress: progress)
    }

    /// Deprecated: use ``rekey(rawKey:options:progress:)``, as ``create(rawKey:)`` and
    /// ``open(rawKey:)``. Calls it.
    @available(*, deprecated, renamed: "rekey(rawKey:options:progress:)")
    public func rekey(toRawKey rawKey: Data, options: CipherOptions? = nil, progress: ((Double) -> Void)? = nil) throws {
        try rekey(rawKey: rawKey, options: options, progress: progress)
    }

    /// Deprecated: use ``rekey(key:options:progress:)``, as ``create(key:)`` and ``open(key:)``.
    /// Calls it.
    @available(*, deprecated, renamed: "rekey(key:options:progress:)")
    public func rekey(toKey key: DatabaseKey, options: CipherOptions? = nil, progress: ((Double) -> Void)? = nil) throws {
        try rekey(key: key, options: options, progress: progress)
    }

    /// Deprecated: use `configuration.passwordPolicy.accepts(_:)` (``PasswordPolicy/accepts(_:)``);
    /// "valid" read as "the right password", which is ``isCurrentPassword(_:)``.
    @available(*, deprecated, message: "use configuration.passwordPolicy.accepts(_:)")
    public func isValid(password: String) -> Bool {
        configuration.passwordPolicy.accepts(password)
    }
}
