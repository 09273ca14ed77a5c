// MARK: - KDFAlgorithm

/// The PBKDF2 hash: `PRAGMA cipher_kdf_algorithm` (SQLCipher 4.0+).
public enum KDFAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// PBKDF2 with HMAC-SHA1: SQLCipher 3 and earlier (and `cipher_compatibility` 1–3).
    case sha1 = "PBKDF2_HMAC_SHA1"
    /// PBKDF2 with HMAC-SHA256.
    case sha256 = "PBKDF2_HMAC_SHA256"
    /// PBKDF2 with HMAC-SHA512: SQLCipher 4's default.
    case sha512 = "PBKDF2_HMAC_SHA512"
}
