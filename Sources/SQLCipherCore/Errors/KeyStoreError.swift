import Foundation

// MARK: - KeyStoreError

/// Why a ``KeyStore`` could not load, store or delete a key. None of them carries key bytes.
///
/// A struct with a ``Code``, like ``DatabaseManagerError``, so that a later version (or a store)
/// can add a failure without breaking an app's `switch`: match `error.code`, or
/// `catch KeyStoreError.Code.locked { … }`.
public struct KeyStoreError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The failure and its details, one case per failure; the library switches over it, an app
    /// over ``code``.
    package let kind: Kind

    /// The error of `kind`.
    init(_ kind: Kind) {
        self.kind = kind
    }

    /// The ``description``, so that `localizedDescription` says what to do.
    public var errorDescription: String? { description }

    /// What failed in which store, and what to do next; never a key.
    public var description: String {
        switch kind {
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
