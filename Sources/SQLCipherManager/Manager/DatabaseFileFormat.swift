// MARK: - DatabaseFileFormat
import SQLCipherCore
import SQLCipherQuery

/// The format of an open database: which SQLCipher major version's settings it is written
/// with, read back from SQLCipher once the file is unlocked (``DatabaseManager/fileFormat``).
///
/// SQLCipher writes no version in the file: a format is its settings. Each major version
/// changed the defaults — SQLCipher 1 had no page HMAC, SQLCipher 2 added it (PBKDF2-HMAC-SHA1,
/// 4,000 iterations), SQLCipher 3 raised the iterations to 64,000, SQLCipher 4 moved to
/// 4,096-byte pages and SHA-512 for the KDF and the HMAC with 256,000 iterations — and a new
/// SQLCipher reads an older file only when told its settings. A file in an older format than
/// the linked library writes is ``isUpgradeAvailable``:
/// ``DatabaseManager/upgradeFormat(progress:)`` converts it.
public struct DatabaseFileFormat: Sendable, Hashable, CustomStringConvertible {
    /// The SQLCipher major version whose format the settings are: 1 without a page HMAC, 2
    /// with PBKDF2-HMAC-SHA1 below 64,000 iterations, 3 with SHA-1 for the KDF and the HMAC,
    /// 4 with a SHA-2 KDF and HMAC.
    public let majorVersion: Int
    /// Every cipher setting the file is read with, as SQLCipher reports them (`PRAGMA kdf_iter`,
    /// `cipher_page_size`, `cipher_use_hmac`, and on 4.x `cipher_kdf_algorithm` and
    /// `cipher_hmac_algorithm`).
    public let settings: CipherOptions
    /// `true` when ``settings`` are exactly the defaults of ``majorVersion``; `false` when the
    /// file has settings of its own (another page size or iteration count).
    public let isDefault: Bool
    /// The major version of the format the linked SQLCipher writes by default.
    public let currentMajorVersion: Int

    /// `true` when the file is in an older format than the linked SQLCipher's own.
    public var isUpgradeAvailable: Bool { majorVersion < currentMajorVersion }

    /// For example `SQLCipher 3 format (1024-byte pages, PBKDF2-HMAC-SHA1 with 64000
    /// iterations, HMAC-SHA1)`, with `with settings of its own` when they are not that
    /// version's defaults.
    public var description: String {
        let kdf = (settings.kdfAlgorithm ?? .sha1).rawValue.replacingOccurrences(of: "_", with: "-")
        let hmac =
            settings.usesHMAC == false
            ? "no page HMAC" : (settings.hmacAlgorithm ?? .sha1).rawValue.replacingOccurrences(of: "_", with: "-")
        let details =
            "\(settings.pageSize.map(String.init) ?? "?")-byte pages, \(kdf) with \(settings.kdfIterations.map(String.init) ?? "?") iterations, \(hmac)"
        return "SQLCipher \(majorVersion) format" + (isDefault ? "" : " with settings of its own") + " (\(details))"
    }

    /// Classifies `settings`, as the linked SQLCipher `version` reports them.
    init(settings: CipherOptions, linked version: SQLCipherVersion) {
        self.settings = settings
        let sha1 = (settings.kdfAlgorithm ?? .sha1) == .sha1 && (settings.hmacAlgorithm ?? .sha1) == .sha1
        if settings.usesHMAC == false {
            majorVersion = 1
        } else if !sha1 {
            majorVersion = 4
        } else {
            majorVersion = (settings.kdfIterations ?? 0) < CipherOptions.minimumKDFIterations ? 2 : 3
        }
        currentMajorVersion = version.major
        var defaults = CipherOptions(compatibility: majorVersion).resolved(for: version)
        defaults.compatibility = nil
        isDefault = defaults == settings
    }

    /// The format of the database open on `db`.
    init(of db: Database) throws {
        let version = try LinkedLibrary.cipherVersion(of: db.connection)
        self.init(settings: try CipherOptions(reportedBy: db), linked: version)
    }
}
