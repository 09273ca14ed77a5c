// MARK: - Cipher information
import SQLCipherCore
import SQLCipherQuery

extension DatabaseManager {
    /// What SQLCipher reports about the open database: `PRAGMA cipher_version`,
    /// `cipher_provider` and the settings (`kdf_iter`, `cipher_page_size`, `cipher_use_hmac`, and
    /// on 4.x `cipher_kdf_algorithm` / `cipher_hmac_algorithm`) — a throwing property, as
    /// ``schemaVersion`` is.
    ///
    /// - Throws: ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/sqlcipherNotLinked``.
    public var cipherInfo: CipherInfo {
        get throws {
            try withDatabase { db in
                CipherInfo(
                    version: try LinkedLibrary.cipherVersion(of: db.connection),
                    provider: try db.scalar(String.self, "PRAGMA cipher_provider"),
                    settings: try CipherOptions(reportedBy: db))
            }
        }
    }
}
