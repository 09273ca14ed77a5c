import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - Key slots for a KeyStore

extension DatabaseManager {
    /// Adds a slot that `key` (a ``DatabaseKey``, as kept by a ``KeyStore``) opens, to the open
    /// key-slot database: ``open(key:)`` and ``openOrCreate(keyStore:keyIdentifier:progress:)`` then
    /// unlock it through that slot, while its passwords keep working.
    ///
    /// ```swift
    /// let key = try DatabaseKey.generate()
    /// try keys.storeKey(key, identifier: "vault")
    /// try manager.addKeySlot(for: key, label: "file key store")
    /// ```
    ///
    /// - Throws: ``DatabaseManagerError/notOpen``, ``KeySlotError/notKeySlotDatabase(path:)``.
    @discardableResult
    public func addKeySlot(for key: DatabaseKey, label: String = "key store") throws -> KeySlot {
        try lockedKeySlots { try addSecretSlot(.rawKey(key.withUnsafeBytes { SecretBytes($0) }), label: label) }
    }

    /// For ``open(key:)``: the data key a raw-key slot gives for `key`, `nil` when the database
    /// has no key slots or none opens with it (then `key` is tried as the data key itself).
    func keySlotKey(for key: DatabaseKey, path: String) throws -> SecretBytes? {
        try keySlotKey([.rawKey(key.withUnsafeBytes { SecretBytes($0) })], path: path, fallsBack: true)
    }
}
