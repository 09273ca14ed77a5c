import Foundation
import SQLCipherCore

// MARK: - Unlocking

/// A slot that opened: the data key and the slot's secret key (to reseal it under a new secret).
package struct UnlockedSlot {
    package let index: Int
    package let dataKey: SecretBytes
    let secretKey: SecretBytes
}

extension KeySlotFile {
    /// Tries every slot of each secret's kind. A wrong secret fails on the AEAD tag (checked in
    /// constant time by libsodium) and reveals nothing; `nil` when no slot opens.
    ///
    /// - Throws: ``KeySlotError/weakKeyDerivation(_:minimum:)`` for a password slot below the
    ///   floor (unless the options allow it), ``KeySlotError/slotFileTampered(path:)`` when a
    ///   slot opens but its data key or the file's authenticator does not check.
    package func unlock(with secrets: [UnlockSecret], options: KeySlotOptions, path: String) throws -> UnlockedSlot? {
        for secret in secrets {
            for (index, slot) in slots.enumerated() where slot.kind == secret.kind {
                if let argon2 = slot.argon2 { try options.check(argon2) }
                let kek = try secret.keyEncryptionKey(salt: slot.salt, argon2: slot.argon2)
                guard let secretKey = slot.openSecretKey(kek: kek, databaseID: databaseID) else { continue }
                guard let dataKey = slot.openDataKey(secretKey: secretKey, databaseID: databaseID, generation: generation),
                    dataKey.count == Sodium.keyLength, isAuthentic(dataKey: dataKey)
                else { throw KeySlotError.slotFileTampered(path: path) }
                return UnlockedSlot(index: index, dataKey: dataKey, secretKey: secretKey)
            }
        }
        return nil
    }

    /// SQLCipher's raw key form for the data key with this database's salt: `x'<64 hex><32 hex>'`.
    package func sqlcipherKey(_ dataKey: SecretBytes) -> SecretBytes {
        dataKey.withBytes { SecretBytes(rawKeyText: $0, salt: databaseSalt) }
    }
}
