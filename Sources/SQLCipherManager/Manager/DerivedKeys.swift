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
/// the configuration (``CipherOptions/compatibility`` spelled out as that version's settings) or
/// the linked library's defaults (`PRAGMA cipher_default_kdf_iter`; SHA-1 on 3.x,
/// `PRAGMA cipher_default_kdf_algorithm` on 4.x). With a raw key nothing is derived. An open
/// tries each set of settings (``FormatFallback``) once: derived and keyed with the raw form,
/// or, where nothing can be derived, with the password itself.
enum DerivedKeys {
    /// The raw key SQLCipher derives from `key` (a password) for `salt` under `cipher`, or
    /// `nil` when it cannot be computed here (a raw key, values out of range, unknown defaults).
    static func derive(_ key: SecretBytes, salt: [UInt8], cipher: CipherOptions) -> KeyDerivation.Derived? {
        // Options out of range are refused by the flows before any key is used; never run
        // PBKDF2 for them here (a kdf_iter of 2^31 would take minutes).
        guard !key.isRawKey, (try? cipher.validateValues()) != nil else { return nil }
        var settings = cipher
        if cipher.compatibility != nil {
            // The version's own settings, as SQLCipher applies them (4.0.1+: validated before use).
            guard let version = LinkedLibrary.cipherVersion, version >= SQLCipherVersion(4, 0, 1) else { return nil }
            settings = cipher.resolved(for: version)
        }
        guard let iterations = settings.kdfIterations ?? LinkedLibrary.defaultKDFIterations,
            let algorithm = settings.kdfAlgorithm ?? LinkedLibrary.defaultKDFAlgorithm
        else { return nil }
        return KeyDerivation.derive(password: key, salt: salt, iterations: iterations, algorithm: algorithm)
    }

    /// The key to create a new file with: derived for a fresh salt, or `key` itself.
    static func keyForNewFile(_ key: SecretBytes, cipher: CipherOptions) -> (material: SecretBytes, derived: KeyDerivation.Derived?) {
        let derived = derive(key, salt: KeyDerivation.newSalt(), cipher: cipher)
        return (derived?.rawKey ?? key, derived)
    }

    /// Connects to an existing file with each of `ciphers` in turn (``FormatFallback/attempts(configured:remembered:)``)
    /// until one opens it: `key` derived for the file's salt and the settings (`known`, when it
    /// was derived for this salt already, on the first attempt only), or `key` itself when
    /// nothing can be derived. Returns the connection, the derived key that opened it and the
    /// settings; when every set is refused, throws the first refusal.
    static func connect(
        path: String, mode: Connection.Mode, key: SecretBytes, known: KeyDerivation.Derived?,
        configuration: DatabaseConfiguration, ciphers: [CipherOptions]
    ) throws -> (Connection, KeyDerivation.Derived?, CipherOptions) {
        var refusal: (any Error)?
        for (index, cipher) in ciphers.enumerated() {
            var attempt = configuration
            attempt.cipher = cipher
            do {
                let (connection, derived) = try connectOnce(
                    path: path, mode: mode, key: key, known: index == 0 ? known : nil, configuration: attempt)
                return (connection, derived, cipher)
            } catch let error where FormatFallback.isRefusal(error) {
                refusal = refusal ?? error
            }
        }
        throw refusal ?? DatabaseManagerError.incorrectPasswordOrSettings(path: path)
    }

    /// One attempt: the derived key (`known` when it fits the file's salt), else `key`.
    private static func connectOnce(
        path: String, mode: Connection.Mode, key: SecretBytes, known: KeyDerivation.Derived?,
        configuration: DatabaseConfiguration
    ) throws -> (Connection, KeyDerivation.Derived?) {
        guard let salt = KeyDerivation.salt(ofFileAt: path),
            let derived = (known?.salt == salt ? known : nil) ?? derive(key, salt: salt, cipher: configuration.cipher)
        else {
            return (try Unlocking.connect(path: path, mode: mode, key: key, configuration: configuration), nil)
        }
        return (try Unlocking.connect(path: path, mode: mode, key: derived.rawKey, configuration: configuration), derived)
    }
}
