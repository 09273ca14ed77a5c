import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - DatabaseCredential

/// What unlocks a database: a password, or a raw key that SQLCipher uses as the AES key
/// without PBKDF2 (its `x'…'` form). ``DatabaseManager/create(_:keySlots:label:)``,
/// ``DatabaseManager/open(_:)`` and ``DatabaseManager/rekey(to:options:progress:)`` take one.
///
/// Every form reaches SQLCipher as bytes (`sqlite3_key`, `sqlite3_rekey` or a bound
/// parameter), never in SQL. A password is normalised to NFC; one read straight into
/// ``SecretBytes`` (``password(_:)-(SecretBytes)``) is never copied into a `String` when it is
/// ASCII, so nothing is left of it in memory once the manager forgets its key. Its
/// `description` names the form only, never the secret.
public struct DatabaseCredential: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    enum Kind: Sendable {
        case password(String)
        case passwordBytes(SecretBytes)
        case rawKey(Data)
        case key(DatabaseKey)
    }

    let kind: Kind

    /// A password the user typed. A `String` cannot be wiped: an app that must leave no copy
    /// reads the password into ``SecretBytes`` and passes ``password(_:)-(SecretBytes)``.
    public static func password(_ password: String) -> DatabaseCredential {
        DatabaseCredential(kind: .password(password))
    }

    /// A password as its UTF-8 bytes in zeroable memory.
    public static func password(_ password: SecretBytes) -> DatabaseCredential {
        DatabaseCredential(kind: .passwordBytes(password))
    }

    /// A raw 32-byte key; any other length is refused with
    /// ``DatabaseManagerError/invalidKeyLength(_:)`` when it is used.
    public static func rawKey(_ key: Data) -> DatabaseCredential {
        DatabaseCredential(kind: .rawKey(key))
    }

    /// A raw key from a ``KeyStore`` (a ``DatabaseKey`` never becomes a `String` or `Data`).
    public static func key(_ key: DatabaseKey) -> DatabaseCredential {
        DatabaseCredential(kind: .key(key))
    }

    /// The form of the credential, the secret redacted.
    public var description: String {
        switch kind {
        case .password, .passwordBytes: "DatabaseCredential.password(<redacted>)"
        case .rawKey: "DatabaseCredential.rawKey(<redacted>)"
        case .key: "DatabaseCredential.key(<redacted>)"
        }
    }

    /// The same redacted text as ``description``, so a debugger or `dump` never shows the secret.
    public var debugDescription: String { description }

    /// No children: `dump` and a debugger's view show the redacted ``description`` only.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension DatabaseCredential {
    /// The password a key-slot database is created with, in NFC. A raw key seals no password
    /// slot: a raw-key slot is added to the open database.
    func keySlotPassword() throws -> SecretBytes {
        switch kind {
        case .password(let password): return SecretBytes(password: password)
        case .passwordBytes(let password): return password.normalizedPassword()
        case .rawKey, .key:
            throw DatabaseManagerError.invalidOption(
                name: "keySlots",
                reason: "a key-slot database is created with a password; add a raw-key slot once it is open (keySlots.add(rawKey:label:))")
        }
    }
}
