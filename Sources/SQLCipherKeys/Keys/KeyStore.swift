import Foundation

// MARK: - KeyStore

/// Somewhere outside the code and outside the database that keeps database keys by identifier:
/// a protected directory (``FileKeyStore``), the desktop keyring (`SecretServiceKeyStore` in the
/// `SQLCipherSecretService` library), or an app's own (the Apple Keychain, a hardware token…).
///
/// The contract that keeps data safe is the difference between **missing** and **unavailable**:
///
/// - ``loadKey(identifier:)`` returns `nil` only when the store is reachable and certainly holds
///   no key under the identifier;
/// - it **throws** whenever it cannot tell: the store is locked, its daemon is not running, a
///   file's permissions are unsafe, the stored value is malformed.
///
/// ``DatabaseManager/openOrCreate(keyStore:identifier:progress:)`` generates a new key only for
/// `nil`, and only when no encrypted database exists; a thrown error never leads to a new key
/// (apps that "recovered" from a locked keychain by making a new key lost every row).
public protocol KeyStore: Sendable {
    /// A short name for messages, such as `file key store /home/ann/.config/notes/keys`.
    var storeDescription: String { get }

    /// The key stored under `identifier`, or `nil` when the store certainly holds none.
    ///
    /// - Throws: a ``KeyStoreError`` (or the store's own error, which
    ///   ``DatabaseManager/openOrCreate(keyStore:identifier:progress:)`` reports as
    ///   ``KeyStoreError/failed(location:reason:)``) whenever the key may exist but cannot be read now.
    func loadKey(identifier: String) throws -> DatabaseKey?

    /// Stores `key` under `identifier` durably: when this returns, the key survives a crash or
    /// a power cut.
    ///
    /// - Throws: ``KeyStoreError/alreadyStored(identifier:store:)`` when a key is already stored
    ///   under `identifier` (it is never replaced: delete it first), or why it could not be stored.
    func storeKey(_ key: DatabaseKey, identifier: String) throws

    /// Deletes the key stored under `identifier`; nothing stored is not an error. A database
    /// encrypted with that key can never be opened again unless the key was backed up.
    func deleteKey(identifier: String) throws
}
