import Foundation
import SQLCipherCore

// MARK: - UnlockSecret

/// A secret offered to a key-slot file, in zeroable memory.
package enum UnlockSecret {
    /// A password's NFC UTF-8 bytes.
    case password(SecretBytes)
    /// A recovery key's 23 random bytes.
    case recovery(SecretBytes)
    /// A key store's 32-byte key.
    case rawKey(SecretBytes)

    package var kind: KeySlot.Kind {
        switch self {
        case .password: .password
        case .recovery: .recovery
        case .rawKey: .rawKey
        }
    }

    /// What a typed password may be: the password itself, and a recovery key when it has that form.
    package static func typed(_ password: String) -> [UnlockSecret] {
        var secrets: [UnlockSecret] = [.password(SecretBytes(password: password))]
        // Parsed only when it has a recovery key's form: the parse makes a copy that is not wiped.
        if RecoveryKey.mayBeRecoveryKey(password.utf8), let recovery = try? RecoveryKey.secret(parsing: password) {
            secrets.append(.recovery(recovery))
        }
        return secrets
    }

    /// The slot's key-encryption key: Argon2id of a password with the slot's salt and cost;
    /// keyed BLAKE2b (the salt as key) of a recovery or raw key, which are random already.
    package func keyEncryptionKey(salt: Data, argon2: Argon2Parameters?) throws -> SecretBytes {
        switch self {
        case .password(let password):
            guard let argon2 else { throw Sodium.Failure(operation: "crypto_pwhash (no parameters)") }
            return try Sodium.argon2id(password: password, salt: salt, opsLimit: argon2.opsLimit, memoryKiB: argon2.memoryKiB)
        case .recovery(let secret), .rawKey(let secret):
            let label = Data("scm-keys/1 kek \(kind.rawValue)".utf8)
            return label.withUnsafeBytes { labelBytes in
                secret.withBytes { Sodium.hash([labelBytes, $0], key: SecretBytes(salt)) }
            }
        }
    }
}
