import Foundation
import SQLCipherCore

// MARK: - KeySlot

/// One way to unlock a key-slot database, as listed by ``DatabaseKeySlots/list()``: no
/// secret, salt or wrapped key, only what a person needs to choose a slot.
public struct KeySlot: Sendable, Hashable, CustomStringConvertible {
    /// What unlocks a slot.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A password, stretched with Argon2id.
        case password
        /// A random recovery key shown once (``RecoveryKey``).
        case recovery
        /// A raw 32-byte key, for a key store.
        case rawKey = "raw-key"
    }

    /// The slot's number in its file, unique and never reused.
    public let id: Int
    /// What unlocks it: a password, the recovery key, or a raw key.
    public let kind: Kind
    /// A name given when the slot was added (not secret).
    public let label: String
    /// When the slot was made.
    public let created: Date
    /// A password slot's Argon2id cost; `nil` for the other kinds.
    public let keyDerivation: Argon2Parameters?

    /// `slot 1: password "main" (Argon2id t=3, m=65536 KiB), created …`.
    public var description: String {
        "slot \(id): \(kind.rawValue) \"\(label)\"" + (keyDerivation.map { " (\($0))" } ?? "")
            + ", created \(ISO8601DateFormatter().string(from: created))"
    }
}
