// MARK: - CipherInfo
import SQLCipherCore

/// What SQLCipher reports about the open database, read in one go by
/// ``DatabaseManager/cipherInfo``: its version, crypto provider and cipher settings.
/// ``DatabaseTools/linkedSQLCipherVersion`` gives the version without a database.
public struct CipherInfo: Sendable, Hashable, CustomStringConvertible {
    /// The SQLCipher version running the database: `PRAGMA cipher_version`.
    public let version: SQLCipherVersion
    /// The crypto provider: `PRAGMA cipher_provider` (for example `openssl`), `nil` when
    /// SQLCipher does not say.
    public let provider: String?
    /// The cipher settings the database uses, read back from SQLCipher (`PRAGMA kdf_iter`,
    /// `cipher_page_size`, `cipher_use_hmac`, and on 4.x `cipher_kdf_algorithm` /
    /// `cipher_hmac_algorithm`).
    public let settings: CipherOptions

    /// For example `SQLCipher 3.4.1 (openssl), kdf_iter 64000, …`.
    public var description: String {
        "SQLCipher \(version)" + (provider.map { " (\($0))" } ?? "") + ", \(settings)"
    }
}
