import Foundation
import SQLCipherCore
import SQLCipherQuery

/// The raw keys SQLCipher would derive from a password, computed here once per unlock.
///
/// After the first unlock, every further connection to the file — `reopen`,
/// `openWithCachedKey`, `create`'s final open, the write lock and the verification connection
/// of a rekey or encryption, the siblings reopened after a key change — is keyed with the raw
/// key SQLCipher would derive (``KeyDerivation``), so PBKDF2 runs once per unlock instead of
/// once per connection. A new file (create, the copy of a rekey or encryption) gets a salt
/// from the system's secure random source and is keyed with `x'<key><salt>'`: SQLCipher
/// writes that salt at the start of the file, so the password opens it everywhere as usual.
///
/// The derivation needs the settings SQLCipher would use: `kdf_iter` and the KDF's hash from
/// the configuration or the linked library's defaults (`PRAGMA cipher_default_kdf_iter`;
/// SHA-1 on 3.x, `PRAGMA cipher_default_kdf_algorithm` on 4.x). With
/// ``CipherOptions/compatibility`` set, or a raw key, nothing is derived and the normal keyed
/// open runs (correct, just slower). When a derived key does not open an existing file, the
/// open is tried again with the password itself, so a wrong derivation only costs time.
enum DerivedKeys {
    /// The raw key SQLCipher derives from `key` (a password) for `salt` under `cipher`, or
    /// `nil` when it cannot be computed here (a raw key, `cipher_compatibility`, unknown defaults).
    static func derive(_ key: SecretBytes, salt: [UInt8], cipher: CipherOptions) -> KeyDerivation.Derived? {
        // Options out of range are refused by the flows before any key is used; never run
        // PBKDF2 for them here (a kdf_iter of 2^31 would take minutes).
        guard !key.isRawKey, cipher.compatibility == nil, (try? cipher.validateValues()) != nil,
            let iterations = cipher.kdfIterations ?? LinkedLibrary.defaultKDFIterations,
            let algorithm = cipher.kdfAlgorithm ?? LinkedLibrary.defaultKDFAlgorithm
        else { return nil }
        return KeyDerivation.derive(password: key, salt: salt, iterations: iterations, algorithm: algorithm)
    }

    /// The key to create a new file with: derived for a fresh salt, or `key` itself.
    static func keyForNewFile(_ key: SecretBytes, cipher: CipherOptions) -> (material: SecretBytes, derived: KeyDerivation.Derived?) {
        let derived = derive(key, salt: KeyDerivation.newSalt(), cipher: cipher)
        return (derived?.rawKey ?? key, derived)
    }

    /// Connects to an existing file with the raw key derived from `key` (`known` when it was
    /// derived for this file's salt already), falling back to `key` itself when that is
    /// refused. Returns the connection and the derived key that opened it (`nil` after a fallback).
    static func connect(
        path: String, mode: Connection.Mode, key: SecretBytes, known: KeyDerivation.Derived?,
        configuration: DatabaseConfiguration
    ) throws -> (Connection, KeyDerivation.Derived?) {
        guard let salt = KeyDerivation.salt(ofFileAt: path),
            let derived = (known?.salt == salt ? known : nil) ?? derive(key, salt: salt, cipher: configuration.cipher)
        else {
            return (try Unlocking.connect(path: path, mode: mode, key: key, configuration: configuration), nil)
        }
        do {
            return (try Unlocking.connect(path: path, mode: mode, key: derived.rawKey, configuration: configuration), derived)
        } catch DatabaseManagerError.incorrectPasswordOrSettings {
            return (try Unlocking.connect(path: path, mode: mode, key: key, configuration: configuration), nil)
        }
    }
}
