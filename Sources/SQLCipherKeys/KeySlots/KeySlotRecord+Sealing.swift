import Foundation
import SQLCipherCore

// MARK: - Sealing and opening a slot

extension KeySlotRecord {
    /// A new slot for a secret: a fresh X25519 key pair, its secret key sealed under `kek`, and
    /// `dataKey` sealed to its public key.
    package static func make(
        id: Int, kind: KeySlot.Kind, label: String, salt: Data, argon2: Argon2Parameters?, kek: SecretBytes,
        dataKey: SecretBytes, databaseID: Data, generation: Int
    ) throws -> KeySlotRecord {
        let secretKey = Sodium.random(Sodium.keyLength)
        var record = KeySlotRecord(
            id: id, kind: kind, label: label, created: Int64(Date().timeIntervalSince1970), salt: salt,
            opsLimit: argon2?.opsLimit, memoryKiB: argon2?.memoryKiB, publicKey: try Sodium.publicKey(of: secretKey),
            secretNonce: Data(), sealedSecretKey: Data(), ephemeralKey: Data(), dataNonce: Data(), sealedDataKey: Data())
        record.sealSecretKey(secretKey, kek: kek, databaseID: databaseID)
        try record.sealDataKey(dataKey, databaseID: databaseID, generation: generation)
        return record
    }

    /// Gives the slot a fresh X25519 key pair: its new secret key sealed under `kek`, `dataKey`
    /// sealed to its new public key. A password change does this, so the old secret key (which
    /// an old slot file and the old password reveal) opens nothing sealed from now on.
    package mutating func renewKeyPair(kek: SecretBytes, dataKey: SecretBytes, databaseID: Data, generation: Int) throws {
        let secretKey = Sodium.random(Sodium.keyLength)
        publicKey = try Sodium.publicKey(of: secretKey)
        sealSecretKey(secretKey, kek: kek, databaseID: databaseID)
        try sealDataKey(dataKey, databaseID: databaseID, generation: generation)
    }

    /// Seals the slot's secret key under `kek`, bound to the slot's current fields.
    mutating func sealSecretKey(_ secretKey: SecretBytes, kek: SecretBytes, databaseID: Data) {
        let sealed = Sodium.seal(secretKey, key: kek, associatedData: secretKeyBinding(databaseID: databaseID))
        secretNonce = sealed.nonce
        sealedSecretKey = sealed.sealed
    }

    /// Seals `dataKey` to the slot's public key with a fresh ephemeral key pair.
    mutating func sealDataKey(_ dataKey: SecretBytes, databaseID: Data, generation: Int) throws {
        let ephemeralSecret = Sodium.random(Sodium.keyLength)
        ephemeralKey = try Sodium.publicKey(of: ephemeralSecret)
        let wrapping = Self.wrappingKey(
            shared: try Sodium.sharedSecret(ephemeralSecret, publicKey), ephemeral: ephemeralKey, slot: publicKey)
        let sealed = Sodium.seal(dataKey, key: wrapping, associatedData: dataKeyBinding(databaseID: databaseID, generation: generation))
        dataNonce = sealed.nonce
        sealedDataKey = sealed.sealed
    }

    /// The slot's secret key, or `nil` when `kek` is not this slot's (wrong secret) or a bound field changed.
    func openSecretKey(kek: SecretBytes, databaseID: Data) -> SecretBytes? {
        Sodium.open(sealedSecretKey, nonce: secretNonce, key: kek, associatedData: secretKeyBinding(databaseID: databaseID))
    }

    /// The data key sealed to this slot, or `nil` when the seal or a bound field was changed.
    func openDataKey(secretKey: SecretBytes, databaseID: Data, generation: Int) -> SecretBytes? {
        guard let shared = try? Sodium.sharedSecret(secretKey, ephemeralKey) else { return nil }
        let wrapping = Self.wrappingKey(shared: shared, ephemeral: ephemeralKey, slot: publicKey)
        return Sodium.open(
            sealedDataKey, nonce: dataNonce, key: wrapping, associatedData: dataKeyBinding(databaseID: databaseID, generation: generation))
    }

    /// BLAKE2b("scm-keys/1 wrap" ‖ shared secret ‖ ephemeral public key ‖ slot public key).
    private static func wrappingKey(shared: SecretBytes, ephemeral: Data, slot: Data) -> SecretBytes {
        let label = Data("scm-keys/1 wrap".utf8)
        return label.withUnsafeBytes { labelBytes in
            ephemeral.withUnsafeBytes { ephemeralBytes in
                slot.withUnsafeBytes { slotBytes in
                    shared.withBytes { Sodium.hash([labelBytes, $0, ephemeralBytes, slotBytes], key: nil) }
                }
            }
        }
    }
}
