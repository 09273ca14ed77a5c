import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - BackupKey

/// The key a backup written by ``DatabaseManager/backup(to:key:options:progress:)-2vlr9`` opens with.
///
/// The default, ``sameAsSource``, keys the backup as the open database is keyed: the same
/// password (or raw key) with a fresh salt. ``password(_:)-(String)`` and
/// ``password(_:)-(SecretBytes)`` give it a new password (checked against the manager's
/// ``PasswordPolicy``), ``rawKey(_:)`` or ``key(_:)`` a raw 32-byte key. The key material stays in
/// ``SecretBytes`` (zeroed when released) and is bound to `ATTACH … KEY ?`, never put in SQL.
public struct BackupKey: Sendable {
    enum Kind: Sendable {
        case sameAsSource
        case password(SecretBytes)
        case rawKey(Data)
        case key(DatabaseKey)
    }

    let kind: Kind

    /// The open database's own password or raw key (the default). Refused for a key-slot
    /// database with ``DatabaseManagerError/keySlots(_:)`` holding
    /// ``KeySlotError/backupNeedsItsOwnKey(path:)``.
    public static let sameAsSource = BackupKey(kind: .sameAsSource)

    /// A new password for the backup.
    public static func password(_ password: String) -> BackupKey {
        BackupKey(kind: .password(SecretBytes(password: password)))
    }

    /// A new password for the backup, its UTF-8 bytes in ``SecretBytes`` (normalised to NFC as
    /// ``DatabaseManager/create(_:keySlots:label:)`` does); no `String` is made of it.
    public static func password(_ password: SecretBytes) -> BackupKey {
        BackupKey(kind: .password(password))
    }

    /// A raw 32-byte key for the backup (SQLCipher's `x'…'` form, no key derivation); another
    /// length is ``DatabaseManagerError/invalidKeyLength(_:)`` when the backup starts.
    public static func rawKey(_ key: Data) -> BackupKey {
        BackupKey(kind: .rawKey(key))
    }

    /// A ``DatabaseKey`` (from a ``KeyStore``, or a key file) for the backup, as
    /// ``DatabaseManager/rekey(to:options:progress:)`` takes one.
    public static func key(_ key: DatabaseKey) -> BackupKey {
        BackupKey(kind: .key(key))
    }
}
