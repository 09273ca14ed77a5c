import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - SecretServiceKeyStore

/// Keeps database keys in the Linux desktop keyring — GNOME Keyring, KWallet, KeePassXC… —
/// through the freedesktop Secret Service D-Bus API, with libsecret
/// (`secret_service_search_sync`, `secret_service_store_sync`, `secret_service_clear_sync`).
///
/// Each key is one item of the schema `org.sqlcipher.SQLCipherManager.DatabaseKey` with the
/// attributes `service` (your app) and `identifier`, in the default collection (for GNOME,
/// the login keyring, unlocked when the user logs in and saved under
/// `~/.local/share/keyrings`). The 32 bytes go over D-Bus in an encrypted transfer session
/// when the daemon offers one, and live in libsecret's secure memory and in ``DatabaseKey``.
///
/// Missing versus unavailable: ``loadKey(identifier:)`` returns `nil` only when the keyring
/// answered and holds no matching item. A locked collection (libsecret cannot prompt without a
/// desktop, so the item stays locked) throws ``KeyStoreError/locked(store:reason:)``; no D-Bus
/// session or keyring daemon throws ``KeyStoreError/serviceUnavailable(store:reason:)``.
///
/// ```swift
/// let store = try SecretServiceKeyStore(service: "com.example.notes")
/// let manager = DatabaseManager(url: databaseURL)
/// try manager.openOrCreate(keyStore: store, identifier: "notes-db")
/// ```
public final class SecretServiceKeyStore: KeyStore {
    /// The `service` attribute of every item this store reads and writes (your app's name).
    public let service: String
    private let connection: SecretServiceConnection

    /// Connects to the Secret Service on the session bus (`$DBUS_SESSION_BUS_ADDRESS`, read by
    /// GLib once per process; `secret_service_get_sync`).
    ///
    /// - Throws: ``KeyStoreError/serviceUnavailable(store:reason:)`` when there is no session bus.
    public init(service: String) throws {
        self.service = service
        connection = try SecretServiceConnection(storeName: "Secret Service keyring")
    }

    public var storeDescription: String { "Secret Service keyring (service \(service))" }

    /// The key stored for (`service`, `identifier`), or `nil` when the keyring holds none.
    ///
    /// - Throws: ``KeyStoreError/locked(store:reason:)``, ``KeyStoreError/serviceUnavailable(store:reason:)``,
    ///   ``KeyStoreError/malformedKey(location:reason:)``.
    public func loadKey(identifier: String) throws -> DatabaseKey? {
        try connection.withItems(service: service, identifier: identifier, unlock: true) { items in
            guard let item = items.first else { return nil }
            return try connection.key(of: item, location: location(identifier))
        }
    }

    /// Stores the key as a new item in the default collection.
    ///
    /// - Throws: ``KeyStoreError/alreadyStored(identifier:store:)`` when an item exists (locked
    ///   or not; it is kept), ``KeyStoreError/locked(store:reason:)``, ``KeyStoreError/serviceUnavailable(store:reason:)``.
    public func storeKey(_ key: DatabaseKey, identifier: String) throws {
        let exists = try connection.withItems(service: service, identifier: identifier, unlock: false) { !$0.isEmpty }
        if exists { throw KeyStoreError.alreadyStored(identifier: identifier, store: storeDescription) }
        try connection.store(key, service: service, identifier: identifier, label: "Database key \(location(identifier))")
    }

    /// Deletes the item(s) for (`service`, `identifier`).
    public func deleteKey(identifier: String) throws {
        try connection.clear(service: service, identifier: identifier)
    }

    private func location(_ identifier: String) -> String { "\(service)/\(identifier)" }
}
