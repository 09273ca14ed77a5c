// MARK: - The failures

extension KeyStoreError {
    /// One case per failure, with the details its message needs. Each case has a static factory
    /// of the same name and labels on ``KeyStoreError`` (documented there) and a ``Code``: a case added
    /// here needs both, which the switch in ``code`` enforces.
    package enum Kind: Sendable, Equatable {
        case invalidIdentifier(String, reason: String)
        case insecurePermissions(path: String, mode: UInt32)
        case wrongOwner(path: String, owner: UInt32, expected: UInt32)
        case notARegularFile(path: String)
        case permissionDenied(path: String, reason: String)
        case malformedKey(location: String, reason: String)
        case locked(store: String, reason: String)
        case serviceUnavailable(store: String, reason: String)
        case alreadyStored(identifier: String, store: String)
        case failed(location: String, reason: String)
        case notStored(identifier: String, store: String)
    }
}

// MARK: - The failures, one factory each

extension KeyStoreError {
    /// The identifier cannot name a key in this store (empty, too long, or characters other
    /// than letters, digits, `.`, `_` and `-`; it may not start with `.`).
    public static func invalidIdentifier(_ identifier: String, reason: String) -> Self {
        Self(.invalidIdentifier(identifier, reason: reason))
    }

    /// A key file or directory can be read or written by other users (group/other permission
    /// bits); it was not read. `mode` is the permission bits found.
    public static func insecurePermissions(path: String, mode: UInt32) -> Self {
        Self(.insecurePermissions(path: path, mode: mode))
    }

    /// A key file or directory belongs to another user; it was not read.
    public static func wrongOwner(path: String, owner: UInt32, expected: UInt32) -> Self {
        Self(.wrongOwner(path: path, owner: owner, expected: expected))
    }

    /// The path is not a regular file (or not a directory, for a store's directory): a symbolic link,
    /// pipe, device… It was not read.
    public static func notARegularFile(path: String) -> Self {
        Self(.notARegularFile(path: path))
    }

    /// The operating system refused access (`EACCES`, `EPERM`, `EROFS`).
    public static func permissionDenied(path: String, reason: String) -> Self {
        Self(.permissionDenied(path: path, reason: reason))
    }

    /// The stored value is not a 32-byte key (raw, or 64 hexadecimal digits).
    public static func malformedKey(location: String, reason: String) -> Self {
        Self(.malformedKey(location: location, reason: reason))
    }

    /// The store is locked (for example a keyring that is not unlocked): the key may be there.
    public static func locked(store: String, reason: String) -> Self {
        Self(.locked(store: store, reason: reason))
    }

    /// The store cannot be reached (no D-Bus session, no keyring daemon…).
    public static func serviceUnavailable(store: String, reason: String) -> Self {
        Self(.serviceUnavailable(store: store, reason: reason))
    }

    /// A key is already stored under this identifier; it was kept.
    public static func alreadyStored(identifier: String, store: String) -> Self {
        Self(.alreadyStored(identifier: identifier, store: store))
    }

    /// An input/output error, a full disk or another failure of the store (a store's own error
    /// type, other than this one, is reported as this case with its text as `reason`).
    public static func failed(location: String, reason: String) -> Self {
        Self(.failed(location: location, reason: reason))
    }

    /// No key is stored under this identifier, where one was expected: ``DatabaseManager/openOrCreate(keyStore:identifier:progress:)``
    /// found an encrypted database but no key for it (a new key is never made for an existing
    /// database), or the store reported a key already stored and then found none.
    public static func notStored(identifier: String, store: String) -> Self {
        Self(.notStored(identifier: identifier, store: store))
    }
}
