import SQLCipherCore

/// The keyed BLAKE2b digest of the password that opened a key-slot database's slot: the
/// manager keeps it instead of the password, for ``DatabaseManager/isCurrentPassword(_:)-(String)``.
enum PasswordDigest {
    /// The digest's key: random, one per process, never written anywhere.
    private static let key = Sodium.random(Sodium.keyLength)

    /// The digest of `password`.
    static func of(_ password: SecretBytes) -> SecretBytes {
        password.withBytes { Sodium.hash([$0], key: key) }
    }
}
