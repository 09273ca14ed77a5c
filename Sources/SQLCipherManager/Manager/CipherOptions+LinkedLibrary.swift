import SQLCipherCore
import SQLCipherQuery

/// The settings as the linked SQLCipher applies them: what it reports for an open database,
/// and the page size it reads a file with.
extension CipherOptions {
    /// The settings SQLCipher reports for the database `db`.
    init(reportedBy db: Database) throws {
        self.init()
        kdfIterations = try db.scalar(Int.self, "PRAGMA kdf_iter")
        pageSize = try db.scalar(Int.self, "PRAGMA cipher_page_size")
        usesHMAC = try db.scalar(Bool.self, "PRAGMA cipher_use_hmac")
        if let version = LinkedLibrary.cipherVersion, version >= SQLCipherVersion(4, 0, 0) {
            kdfAlgorithm = try db.scalar(String.self, "PRAGMA cipher_kdf_algorithm").flatMap(KDFAlgorithm.init)
            hmacAlgorithm = try db.scalar(String.self, "PRAGMA cipher_hmac_algorithm").flatMap(HMACAlgorithm.init)
        }
    }

    /// The page size a key is tried with: the option, else the one `cipher_compatibility`
    /// implies, else the linked SQLCipher's default (4096 from 4.0, 1024 before).
    var expectedPageSize: Int {
        if let pageSize { return pageSize }
        if let compatibility { return compatibility >= 4 ? 4096 : 1024 }
        return (LinkedLibrary.cipherVersion?.major ?? 3) >= 4 ? 4096 : 1024
    }
}
