// MARK: - Cipher information
import SQLCipherCore
import SQLCipherQuery

extension DatabaseManager {
    /// The linked SQLCipher's version (`PRAGMA cipher_version` on an in-memory connection), or
    /// `nil` when the process is not linked against SQLCipher; public as
    /// ``DatabaseTools/linkedSQLCipherVersion``.
    static let linkedCipherVersion: SQLCipherVersion? = {
        guard let connection = try? Connection(path: ":memory:", mode: .readWriteCreate) else { return nil }
        defer { connection.close() }
        return try? linkedVersion(of: connection)
    }()

    /// The linked SQLite's version, `sqlite_version()` on an in-memory connection; public as
    /// ``DatabaseTools/linkedSQLiteVersion``.
    static let linkedSQLiteLibraryVersion: String? = {
        guard let connection = try? Connection(path: ":memory:", mode: .readWriteCreate) else { return nil }
        defer { connection.close() }
        return try? connection.text("SELECT sqlite_version()")
    }()

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
                    version: try Self.linkedVersion(of: db.connection),
                    provider: try db.scalar(String.self, "PRAGMA cipher_provider"),
                    settings: try Self.cipherSettings(of: db))
            }
        }
    }

    /// The settings SQLCipher reports for the database `db`.
    static func cipherSettings(of db: Database) throws -> CipherOptions {
        var options = CipherOptions()
        options.kdfIterations = try db.scalar(Int.self, "PRAGMA kdf_iter")
        options.pageSize = try db.scalar(Int.self, "PRAGMA cipher_page_size")
        options.usesHMAC = try db.scalar(Bool.self, "PRAGMA cipher_use_hmac")
        if let version = linkedCipherVersion, version >= SQLCipherVersion(4, 0, 0) {
            options.kdfAlgorithm = try db.scalar(String.self, "PRAGMA cipher_kdf_algorithm").flatMap(KDFAlgorithm.init)
            options.hmacAlgorithm = try db.scalar(String.self, "PRAGMA cipher_hmac_algorithm").flatMap(HMACAlgorithm.init)
        }
        return options
    }
}
