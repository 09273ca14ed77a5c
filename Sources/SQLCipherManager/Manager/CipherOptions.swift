// MARK: - CipherOptions
import SQLCipherCore

/// The cipher settings applied right after the key, before the first read.
///
/// `nil` means "the linked SQLCipher's default". Options that the linked SQLCipher does not
/// know (SQLCipher 3.x silently ignores 4.x pragmas) make create/open throw
/// ``DatabaseManagerError/unsupportedOption(name:requires:linked:)`` instead of being dropped.
public struct CipherOptions: Sendable, Hashable {
    /// PBKDF2 iterations: `PRAGMA kdf_iter`, from ``minimumKDFIterations`` to
    /// ``maximumKDFIterations`` (lower only with ``allowsLegacyKDFIterations``).
    public var kdfIterations: Int?
    /// Page size in bytes: `PRAGMA cipher_page_size`. A power of two in 512…65536.
    public var pageSize: Int?
    /// Per-page HMAC: `PRAGMA cipher_use_hmac`.
    public var usesHMAC: Bool?
    /// The KDF's hash: `PRAGMA cipher_kdf_algorithm` (SQLCipher 4.0+).
    public var kdfAlgorithm: KDFAlgorithm?
    /// The HMAC's hash: `PRAGMA cipher_hmac_algorithm` (SQLCipher 4.0+).
    public var hmacAlgorithm: HMACAlgorithm?
    /// All settings of a major version at once: `PRAGMA cipher_compatibility` (SQLCipher 4.0.1+).
    public var compatibility: Int?
    /// Opt-in: accept ``kdfIterations`` below ``minimumKDFIterations``, to open a file written
    /// with a cheaper KDF (SQLCipher 1 and 2 wrote 4,000 iterations). It applies to every flow,
    /// so a database created or rekeyed with it is that cheap to attack: convert such a file
    /// with ``DatabaseManager/rekey(to:options:progress:)`` to 64,000 or more. Not a pragma.
    public var allowsLegacyKDFIterations: Bool
    /// SQLCipher 4.0+: leave the file's first 32 bytes (SQLite's header start) in plaintext,
    /// `PRAGMA cipher_plaintext_header_size = 32`, as iOS needs for a WAL database shared with
    /// an app extension. The salt is then no longer in the file: the manager keeps it beside the
    /// database as `<db>.scm-salt` and applies it (`PRAGMA cipher_salt`) on every connection it
    /// opens; back that file up with the database, since without it no key opens the file.
    /// A database already in the other form is converted with
    /// ``DatabaseManager/convertPlaintextHeader(_:progress:)``. On SQLCipher 3 it is
    /// ``DatabaseManagerError/unsupportedOption(name:requires:linked:)``.
    public var plaintextHeader: Bool

    /// Creates options; every `nil` keeps the library default.
    public init(
        kdfIterations: Int? = nil, pageSize: Int? = nil, usesHMAC: Bool? = nil,
        kdfAlgorithm: KDFAlgorithm? = nil, hmacAlgorithm: HMACAlgorithm? = nil, compatibility: Int? = nil,
        allowsLegacyKDFIterations: Bool = false, plaintextHeader: Bool = false
    ) {
        self.kdfIterations = kdfIterations
        self.pageSize = pageSize
        self.usesHMAC = usesHMAC
        self.kdfAlgorithm = kdfAlgorithm
        self.hmacAlgorithm = hmacAlgorithm
        self.compatibility = compatibility
        self.allowsLegacyKDFIterations = allowsLegacyKDFIterations
        self.plaintextHeader = plaintextHeader
    }

    // MARK: - Profiles

    /// An opt-in profile for new databases, faster than SQLCipher 3's defaults: 4,096-byte
    /// pages (SQLCipher 4's size), everything else the linked SQLCipher's defaults. On 3.x that
    /// is SQLCipher 3's (PBKDF2-HMAC-SHA1 with 64,000 iterations, HMAC-SHA1 per page); on 4.x,
    /// whose own page size is 4,096 bytes, the profile is the 4.x defaults. SQLCipher encrypts
    /// and authenticates a page as one unit, so larger pages mean fewer of them per row:
    /// BENCHMARKS.md gives the gain.
    ///
    /// The page size is not written in the file: every client must be told it. Open the
    /// database with these options (``DatabaseConfiguration/cipher``); in the SQLCipher 3
    /// shell, `PRAGMA cipher_page_size = 4096` right after `PRAGMA key`; a file made on 3.x, in
    /// SQLCipher 4, `PRAGMA cipher_compatibility = 3` and then `PRAGMA cipher_page_size = 4096`.
    /// ``DatabaseManager/diagnoseCipherSettings(password:alsoTrying:)-(String,_)`` (and `cipherdb`) finds a
    /// 3.x one as "SQLCipher 3 defaults with 4096-byte pages" (on 4.x: "SQLCipher 3 format with
    /// 4096-byte pages"). A database keeps the page size it was created with;
    /// ``DatabaseManager/rekey(to:options:progress:)`` converts one.
    public static let largePages = CipherOptions(pageSize: 4096)

    // MARK: - Limits

    /// The security floor for ``kdfIterations``: 64,000, SQLCipher 3's default and the least any
    /// SQLCipher has used by default since 2013. Fewer makes password guessing cheap, so a
    /// lower value needs ``allowsLegacyKDFIterations``.
    public static let minimumKDFIterations = 64_000

    /// The ceiling for ``kdfIterations``: 10,000,000, seven times OWASP's 2023 advice for
    /// PBKDF2-HMAC-SHA1 and about 3 s of PBKDF2 per open on a 2024 server core. It keeps every
    /// open bounded (2³¹ − 1 runs for minutes) and far below SQLCipher's 32-bit `int`
    /// (`PRAGMA kdf_iter` wraps values of 2³¹ and more, and 2³² becomes 0: no key stretching).
    public static let maximumKDFIterations = 10_000_000

    /// The page sizes SQLCipher accepts: `PRAGMA cipher_page_size`, a power of two in this range.
    public static let pageSizes = 512...65536

    // MARK: - Validation

    /// Checks the values and that the linked SQLCipher supports every option that is set.
    func validate(for version: SQLCipherVersion) throws {
        try validateValues()
        let v4 = SQLCipherVersion(4, 0, 0)
        for (name, isSet, requires) in [
            ("kdfAlgorithm", kdfAlgorithm != nil, v4),
            ("hmacAlgorithm", hmacAlgorithm != nil, v4),
            ("compatibility", compatibility != nil, SQLCipherVersion(4, 0, 1)),
            ("plaintextHeader", plaintextHeader, v4),
        ] where isSet && version < requires {
            throw DatabaseManagerError.unsupportedOption(name: name, requires: requires, linked: version)
        }
    }

    // MARK: - Pragmas

    /// The options that are set, as (pragma name, value), in the order SQLCipher needs them
    /// (compatibility first, since it resets the others).
    var settings: [(pragma: String, value: String)] {
        var list: [(pragma: String, value: String)] = []
        if let compatibility { list.append(("cipher_compatibility", "\(compatibility)")) }
        if let pageSize { list.append(("cipher_page_size", "\(pageSize)")) }
        if let kdfIterations { list.append(("kdf_iter", "\(kdfIterations)")) }
        if let usesHMAC { list.append(("cipher_use_hmac", usesHMAC ? "ON" : "OFF")) }
        if let kdfAlgorithm { list.append(("cipher_kdf_algorithm", kdfAlgorithm.rawValue)) }
        if let hmacAlgorithm { list.append(("cipher_hmac_algorithm", hmacAlgorithm.rawValue)) }
        return list
    }

    /// The pragmas to run after the key (or after an ATTACH, for `schema`).
    /// They carry numbers and keywords only, never key material.
    func pragmas(schema: String = "main") -> [String] {
        settings.map { "PRAGMA \(schema).\($0.pragma) = \($0.value)" }
    }
}

// MARK: - Algorithms

/// The page HMAC hash: `PRAGMA cipher_hmac_algorithm` (SQLCipher 4.0+).
public enum HMACAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// HMAC-SHA1: SQLCipher 3 and earlier (and `cipher_compatibility` 1–3).
    case sha1 = "HMAC_SHA1"
    /// HMAC-SHA256.
    case sha256 = "HMAC_SHA256"
    /// HMAC-SHA512: SQLCipher 4's default.
    case sha512 = "HMAC_SHA512"
}

// MARK: - Description

extension CipherOptions: CustomStringConvertible {
    /// The options that are set, e.g. `cipher_page_size=1024, kdf_iter=64000, cipher_use_hmac=ON`;
    /// `defaults` when none is.
    public var description: String {
        // The header size is applied by the file's form (Unlocking), so it is not in `settings`.
        let parts = settings.map { "\($0.pragma)=\($0.value)" } + (plaintextHeader ? ["cipher_plaintext_header_size=32"] : [])
        return parts.isEmpty ? "defaults" : parts.joined(separator: ", ")
    }
}
