// MARK: - Cipher information

extension DatabaseManager {
    /// The linked SQLCipher's version (`PRAGMA cipher_version` on an in-memory connection), or
    /// `nil` when the process is not linked against SQLCipher.
    public static let linkedSQLCipherVersion: SQLCipherVersion? = {
        guard let connection = try? Connection(path: ":memory:", mode: .readWriteCreate) else { return nil }
        defer { connection.close() }
        return try? linkedVersion(of: connection)
    }()

    /// The linked SQLite's version, `sqlite_version()` on an in-memory connection (for example
    /// `3.15.2`), or `nil` when it cannot be read.
    public static let linkedSQLiteVersion: String? = {
        guard let connection = try? Connection(path: ":memory:", mode: .readWriteCreate) else { return nil }
        defer { connection.close() }
        return try? Database(connection: connection).scalar(String.self, "SELECT sqlite_version()")
    }()

    /// The raw `PRAGMA cipher_version` of the open database (for example `3.4.1`).
    public var cipherVersion: String? {
        try? withDatabase { try $0.scalar(String.self, "PRAGMA cipher_version") }
    }

    /// The crypto provider of the open database: `PRAGMA cipher_provider` (for example `openssl`).
    public var cipherProvider: String? {
        try? withDatabase { try $0.scalar(String.self, "PRAGMA cipher_provider") }
    }

    /// The cipher settings the open database uses, read back from SQLCipher
    /// (`PRAGMA kdf_iter`, `cipher_page_size`, `cipher_use_hmac`, and on 4.x
    /// `cipher_kdf_algorithm` / `cipher_hmac_algorithm`).
    public func cipherSettings() throws -> CipherOptions {
        try withDatabase { db in
            var options = CipherOptions()
            options.kdfIterations = try db.scalar(Int.self, "PRAGMA kdf_iter")
            options.pageSize = try db.scalar(Int.self, "PRAGMA cipher_page_size")
            options.usesHMAC = try db.scalar(Bool.self, "PRAGMA cipher_use_hmac")
            if let version = Self.linkedSQLCipherVersion, version >= SQLCipherVersion(4, 0, 0) {
                options.kdfAlgorithm = try db.scalar(String.self, "PRAGMA cipher_kdf_algorithm").flatMap(KDFAlgorithm.init)
                options.hmacAlgorithm = try db.scalar(String.self, "PRAGMA cipher_hmac_algorithm").flatMap(HMACAlgorithm.init)
            }
            return options
        }
    }
}
