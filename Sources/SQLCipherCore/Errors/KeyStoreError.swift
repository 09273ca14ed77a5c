import Foundation

// MARK: - KeyStoreError

/// Why a ``KeyStore`` could not load, store or delete a key. None of the cases carries key bytes.
public enum KeyStoreError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The identifier cannot name a key in this store (empty, too long, or characters other
    /// than letters, digits, `.`, `_` and `-`; it may not start with `.`).
    case invalidIdentifier(String, reason: String)
    /// A key file or directory can be read or written by other users (group/other permission
    /// bits); it was not read. `mode` is the permission bits found.
    case insecurePermissions(path: String, mode: UInt32)
    /// A key file or directory belongs to another user; it was not read.
    case wrongOwner(path: String, owner: UInt32, expected: UInt32)
    /// The path is not a regular file (or not a directory, for a store's directory): a symbolic link,
    /// pipe, device… It was not read.
    case notARegularFile(path: String)
    /// The operating system refused access (`EACCES`, `EPERM`, `EROFS`).
    case permissionDenied(path: String, reason: String)
    /// The stored value is not a 32-byte key (raw, or 64 hexadecimal digits).
    case malformedKey(location: String, reason: String)
    /// The store is locked (for example a keyring that is not unlocked): the key may be there.
    case locked(store: String, reason: String)
    /// The store cannot be reached (no D-Bus session, no keyring daemon…).
    case serviceUnavailable(store: String, reason: String)
    /// A key is already stored under this identifier; it was kept.
    case alreadyStored(identifier: String, store: String)
    /// An input/output error, a full disk or another failure of the store (a store's own error
    /// type, other than this one, is reported as this case with its text as `reason`).
    case failed(location: String, reason: String)
    /// No key is stored under this identifier, where one was expected: ``DatabaseManager/openOrCreate(keyStore:identifier:progress:)``
    /// found an encrypted database but no key for it (a new key is never made for an existing
    /// database), or the store reported a key already stored and then found none.
    case notStored(identifier: String, store: String)

    /// The ``description``, so that `localizedDescription` says what to do.
    public var errorDescription: String? { description }

    /// What failed in which store, and what to do next; never a key.
    public var description: String {
        switch self {
        case .invalidIdentifier(let identifier, let reason):
            return "'\(identifier)' cannot be a key identifier: \(reason). Use letters, digits, '.', '_' and '-'."
        case .insecurePermissions(let path, let mode):
            return "\(path) is accessible to other users (mode \(String(mode, radix: 8))), so it was not read. "
                + "Run `chmod go-rwx \(path)` if only you had access, or treat the key as leaked."
        case .wrongOwner(let path, let owner, let expected):
            return "\(path) belongs to user \(owner), not to user \(expected) running this program, so it was not "
                + "read. Check who put it there; `chown` it back if it is yours."
        case .notARegularFile(let path):
            return "\(path) is not a regular file (or directory), so it was not read. Put the key in a plain file."
        case .permissionDenied(let path, let reason):
            return "Permission denied for \(path): \(reason). Check its owner and permissions."
        case .malformedKey(let location, let reason):
            return "The key at \(location) is malformed: \(reason). Restore it from your backup of the key."
        case .locked(let store, let reason):
            return "The \(store) is locked: \(reason). Unlock it (log in to the desktop session) and try again; "
                + "the key may well be there."
        case .serviceUnavailable(let store, let reason):
            return "The \(store) cannot be reached: \(reason). Start the keyring (a desktop session with "
                + "D-Bus and gnome-keyring or KWallet) and try again."
        case .alreadyStored(let identifier, let store):
            return "A key is already stored as '\(identifier)' in the \(store); it was kept. Load it instead."
        case .failed(let location, let reason):
            return "The key store failed at \(location): \(reason)."
        case .notStored(let identifier, let store):
            return "No key is stored as '\(identifier)' in the \(store). Restore the key from your backup of it."
        }
    }
}
