import Foundation
import SQLCipherCore

// MARK: - KeySlotRecord

/// One slot as stored in `<db>.scm-keys`.
///
/// Each slot owns an X25519 key pair. Its secret key is sealed (XChaCha20-Poly1305) under the
/// slot's key-encryption key — Argon2id of the password, or BLAKE2b of a recovery or raw key,
/// with the slot's salt — and the database's data key is sealed to its public key (an
/// ephemeral X25519 exchange, BLAKE2b of the shared secret and both public keys as the
/// AEAD key). So a password change reseals only the secret key, and a data-key rotation
/// reseals the data key to every slot without knowing any password. The associated data binds
/// every seal to the database identity, the slot's id, kind, label, date, salt and cost.
package struct KeySlotRecord: Codable, Equatable {
    package var id: Int
    package var kind: KeySlot.Kind
    var label: String
    /// Seconds since 1970.
    var created: Int64
    package var salt: Data
    /// Argon2id cost (password slots only).
    package var opsLimit: Int?
    package var memoryKiB: Int?
    package var publicKey: Data
    var secretNonce: Data
    var sealedSecretKey: Data
    var ephemeralKey: Data
    var dataNonce: Data
    var sealedDataKey: Data

    var argon2: Argon2Parameters? {
        guard let opsLimit, let memoryKiB else { return nil }
        return Argon2Parameters(opsLimit: opsLimit, memoryKiB: memoryKiB)
    }

    package var info: KeySlot {
        KeySlot(
            id: id, kind: kind, label: label, created: Date(timeIntervalSince1970: TimeInterval(created)),
            keyDerivation: argon2)
    }

    // MARK: - Associated data

    /// What the sealed secret key is bound to: the database and every field of the slot but the seals.
    func secretKeyBinding(databaseID: Data) -> Data {
        var bytes = CanonicalBytes(purpose: "scm-keys/1 slot secret key")
        bytes.add(databaseID)
        bytes.add(id)
        bytes.add(kind.rawValue)
        bytes.add(label)
        bytes.add(created)
        bytes.add(salt)
        bytes.add(opsLimit ?? 0)
        bytes.add(memoryKiB ?? 0)
        bytes.add(publicKey)
        return bytes.data
    }

    /// What the sealed data key is bound to: the database, its key generation, the slot and both public keys.
    func dataKeyBinding(databaseID: Data, generation: Int) -> Data {
        var bytes = CanonicalBytes(purpose: "scm-keys/1 data key")
        bytes.add(databaseID)
        bytes.add(generation)
        bytes.add(id)
        bytes.add(publicKey)
        bytes.add(ephemeralKey)
        return bytes.data
    }

    /// Every field, for the file's authenticator.
    func appendAll(to bytes: inout CanonicalBytes) {
        bytes.add(secretKeyBinding(databaseID: Data()))
        for field in [secretNonce, sealedSecretKey, ephemeralKey, dataNonce, sealedDataKey] { bytes.add(field) }
    }

    /// `true` when every binary field has its fixed length.
    var hasValidLengths: Bool {
        salt.count == Sodium.saltLength && publicKey.count == Sodium.keyLength && ephemeralKey.count == Sodium.keyLength
            && secretNonce.count == Sodium.nonceLength && dataNonce.count == Sodium.nonceLength
            && sealedSecretKey.count == Sodium.keyLength + Sodium.tagLength
            && sealedDataKey.count == Sodium.keyLength + Sodium.tagLength
            && (kind == .password) == (argon2 != nil)
    }
}
