import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - DatabaseKeySlots

extension DatabaseManager {
    /// The key slots of the database at ``databaseURL``: list, add, remove and change the
    /// passwords, recovery keys and raw keys that open it, give it a new data key, or switch it
    /// between one password and key slots. Creating and opening stay the manager's own verbs:
    /// ``create(_:keySlots:label:)`` and ``open(recoveryKey:)``.
    public var keySlots: DatabaseKeySlots { DatabaseKeySlots(manager: self) }
}

/// The key slots of one manager's database (`<db>.scm-keys`): each slot seals the database's
/// data key under a password, a recovery key or a raw key. Reached as
/// ``DatabaseManager/keySlots``; each call runs under the manager's lock, as its other flows,
/// and throws ``DatabaseManagerError`` only: a failure of the slot file or the slots is
/// ``DatabaseManagerError/keySlots(_:)``, which keeps the ``KeySlotError``.
///
/// ```swift
/// try manager.create(password: "first password", keySlots: true)
/// try manager.keySlots.add(password: "second password", label: "partner")
/// let recovery = try manager.keySlots.addRecoveryKey()
/// print(recovery.text)   // shown to the user once
/// ```
public struct DatabaseKeySlots: Sendable {
    /// The manager whose database these slots open.
    public let manager: DatabaseManager

    /// `true` when the database uses key slots (its slot file, or its header's key-slot marker,
    /// is there), open or not.
    public var isEnabled: Bool { manager.usesKeySlots }

    /// The slots of the database at ``DatabaseManager/databaseURL`` (open or not), without any
    /// secret. Read from `<db>.scm-keys` (or `.next` during a transition); authenticated at the
    /// next unlock.
    ///
    /// - Throws: ``DatabaseManagerError/keySlots(_:)`` with ``KeySlotError/notKeySlotDatabase(path:)``
    ///   or ``KeySlotError/slotFileDamaged(path:reason:)``.
    public func list() throws -> [KeySlot] { try manager.listSlotsFlow() }

    /// Adds a password slot to the open key-slot database. The slot file is replaced atomically
    /// and durably; the database file is not touched.
    ///
    /// - Returns: the new slot.
    /// - Throws: ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/keySlots(_:)`` with
    ///   ``KeySlotError/notKeySlotDatabase(path:)``, ``DatabaseManagerError/invalidPassword(reason:)``.
    @discardableResult
    public func add(password: String, label: String = "password") throws -> KeySlot {
        try manager.addPasswordFlow(SecretBytes(password: password), label: label)
    }

    /// Adds a recovery-key slot to the open key-slot database and returns the key, once: show
    /// ``RecoveryKey/text`` to the user to write down. No copy is kept. (Not an `add(…)`: the
    /// slot's secret is made here, not given.)
    ///
    /// - Throws: ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/keySlots(_:)`` with
    ///   ``KeySlotError/notKeySlotDatabase(path:)``.
    public func addRecoveryKey(label: String = "recovery key") throws -> RecoveryKey {
        try manager.addRecoveryKeyFlow(label: label)
    }

    /// Adds a slot that a raw 32-byte key opens (for a key store); ``DatabaseManager/open(_:)``
    /// then tries the raw-key slots before using a key as the data key itself.
    ///
    /// - Throws: ``DatabaseManagerError/invalidKeyLength(_:)`` unless the key is 32 bytes,
    ///   ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/keySlots(_:)`` with
    ///   ``KeySlotError/notKeySlotDatabase(path:)``.
    @discardableResult
    public func add(rawKey: Data, label: String = "key store") throws -> KeySlot {
        try manager.addRawKeyFlow(rawKey, label: label)
    }

    /// Adds a slot that `key` (a ``DatabaseKey``, as kept by a ``KeyStore``) opens, to the open
    /// key-slot database: ``DatabaseManager/open(_:)`` and
    /// ``DatabaseManager/openOrCreate(keyStore:identifier:progress:)`` then unlock it through that
    /// slot, while its passwords keep working.
    ///
    /// ```swift
    /// let key = try DatabaseKey.generate()
    /// try keys.storeKey(key, identifier: "vault")
    /// try manager.keySlots.add(key: key, label: "file key store")
    /// ```
    ///
    /// - Throws: ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/keySlots(_:)`` with
    ///   ``KeySlotError/notKeySlotDatabase(path:)``.
    @discardableResult
    public func add(key: DatabaseKey, label: String = "key store") throws -> KeySlot {
        try manager.addKeyFlow(key, label: label)
    }

    /// Removes a slot of the open key-slot database (never the last one).
    ///
    /// A copy of the old slot file put back is refused (``DatabaseManagerError/keySlots(_:)`` with
    /// ``KeySlotError/slotFileOutdated(path:database:)``), but whoever unwrapped the data key with
    /// the removed secret can read the file with that key until ``rekey(progress:)`` re-encrypts
    /// it with a new one.
    ///
    /// - Throws: ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/keySlots(_:)`` with
    ///   ``KeySlotError/slotNotFound(id:)``, ``KeySlotError/lastSlot(id:)`` or
    ///   ``KeySlotError/notKeySlotDatabase(path:)``.
    public func remove(id: Int) throws { try manager.removeSlotFlow(id: id) }

    /// Removes the password slot that `password` opens (never the last slot).
    ///
    /// - Throws: ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)`` when no password
    ///   slot accepts it, and the errors of ``remove(id:)``.
    public func remove(password: String) throws { try manager.removePasswordFlow(password) }

    /// Changes one password: the slot the old password opens gets a fresh key pair sealed under
    /// the new one (new salt, freshly calibrated Argon2id), so an old copy of the slot file and
    /// the old password reveal no secret key the current file uses. No page of the database is
    /// re-encrypted (the data key stays; ``rekey(progress:)`` changes it); the slot file is
    /// replaced atomically and durably. Works with the manager open or closed.
    ///
    /// - Throws: ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)`` when no
    ///   password slot accepts `old` (nothing changed), ``DatabaseManagerError/keySlots(_:)`` with
    ///   ``KeySlotError/notKeySlotDatabase(path:)``, ``DatabaseManagerError/invalidPassword(reason:)``.
    public func change(password old: String, to new: String) throws {
        try manager.changePasswordFlow(from: SecretBytes(password: old), to: SecretBytes(password: new))
    }

    /// Rekeys the open key-slot database: re-encrypts it with a new random data key and reseals
    /// that key to every slot (no password needed: each slot's public key suffices). Every
    /// secret that opened the database still does; a copy of the old slot file no longer opens
    /// the new database.
    ///
    /// Journaled with the database: `<db>.scm-keys.next` (the slots sealing the new key) is
    /// written durably first, then the database is re-keyed in place (one write transaction, as
    /// ``DatabaseManager/rekey(to:options:progress:)``; the file keeps its salt), then `.next`
    /// replaces `<db>.scm-keys`. After a kill at any moment the next unlock tries both files'
    /// keys on the database and keeps the side that opens it.
    ///
    /// - Throws: ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/keySlots(_:)`` with
    ///   ``KeySlotError/notKeySlotDatabase(path:)``, and the errors of
    ///   ``DatabaseManager/rekey(to:options:progress:)`` (the database then keeps
    ///   its old key).
    public func rekey(progress: ((Double) -> Void)? = nil) throws { try manager.rotateDataKeyFlow(progress: progress) }

    /// Switches the open password database to key slots: a random data key, a slot for
    /// `password` (which must be the database's password), then the crash-safe export rekey to
    /// the data key (a new file: a key-slot database has a salt of its own).
    /// `<db>.scm-keys.next` is written first; after a kill the password opens the database
    /// either way (as a password or through its slot).
    ///
    /// - Throws: ``DatabaseManagerError/keySlots(_:)`` with ``KeySlotError/keySlotDatabase(path:)``
    ///   when it uses key slots already, ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)``
    ///   when `password` is not its password, and the errors of
    ///   ``DatabaseManager/rekey(to:options:progress:)``.
    public func enable(password: String, label: String = "password", progress: ((Double) -> Void)? = nil) throws {
        try manager.convertToKeySlotsFlow(password: SecretBytes(password: password), label: label, progress: progress)
    }

    /// Switches the open key-slot database back to one password: rekeys it with `password`
    /// (SQLCipher's PBKDF2, the configured cipher options), then removes its slot file. A marker
    /// `<db>.scm-keys.next` is written first; after a kill either the old slots or the new
    /// password open the database, never both.
    ///
    /// - Throws: ``DatabaseManagerError/keySlots(_:)`` with ``KeySlotError/notKeySlotDatabase(path:)``,
    ///   ``DatabaseManagerError/invalidPassword(reason:)``, and the errors of
    ///   ``DatabaseManager/rekey(to:options:progress:)``.
    public func disable(password: String, progress: ((Double) -> Void)? = nil) throws {
        try manager.convertToPasswordFlow(password, progress: progress)
    }

    /// The raw data key of the key-slot database at ``DatabaseManager/databaseURL``, after
    /// `password` (or a recovery key) opened one of its slots: for other SQLCipher tools
    /// (`PRAGMA key = "x'<64 hex>'"`). Whoever holds it can read the database until
    /// ``rekey(progress:)``; keep it as safe as the database.
    ///
    /// - Throws: ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)``,
    ///   ``DatabaseManagerError/keySlots(_:)`` with ``KeySlotError/notKeySlotDatabase(path:)``, and
    ///   the slot-file errors of ``DatabaseManager/open(password:)``.
    public func exportDataKey(password: String) throws -> Data {
        try manager.exportDataKeyFlow(UnlockSecret.typed(password))
    }
}
