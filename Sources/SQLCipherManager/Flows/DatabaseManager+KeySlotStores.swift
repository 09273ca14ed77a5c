import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - Key slots for a KeyStore

extension DatabaseManager {
    /// The flow of ``DatabaseKeySlots/add(key:label:)``.
    func addKeyFlow(_ key: DatabaseKey, label: String) throws -> KeySlot {
        try lockedKeySlots { try addSecretSlot(.rawKey(key.withUnsafeBytes { SecretBytes($0) }), label: label) }
    }

    /// For ``open(_:)``: the data key a raw-key slot gives for `key`, `nil` when the database
    /// has no key slots or none opens with it (then `key` is tried as the data key itself).
    func keySlotKey(for key: DatabaseKey, path: String) throws -> SecretBytes? {
        try keySlotKey([.rawKey(key.withUnsafeBytes { SecretBytes($0) })], path: path, fallsBack: true)
    }
}
