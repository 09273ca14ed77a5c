// MARK: - CipherOptions

/// The cipher settings applied right after the key, before the first read.
///
/// `nil` means "the linked SQLCipher's default". Options that the linked SQLCipher does not
/// know (SQLCipher 3.x silently ignores 4.x pragmas) make create/open throw
/// ``DatabaseManagerError/unsupportedOption(name:requires:linked:)`` instead of being dropped.
public struct CipherOptions: Sendable, Hashable {
    /// PBKDF2 iterations: `PRAGMA kdf_iter`. Must be positive.
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

    /// Creates options; every `nil` keeps the library default.
    public init(
        kdfIterations: Int? = nil, pageSize: Int? = nil, usesHMAC: Bool? = nil,
        kdfAlgorithm: KDFAlgorithm? = nil, hmacAlgorithm: HMACAlgorithm? = nil, compatibility: Int? = nil
    ) {
        self.kdfIterations = kdfIterations
        self.pageSize = pageSize
        self.usesHMAC = usesHMAC
        self.kdfAlgorithm = kdfAlgorithm
        self.hmacAlgorithm = hmacAlgorithm
        self.compatibility = compatibility
    }

    // MARK: - Validation

    /// Checks the values and that the linked SQLCipher supports every option that is set.
    func validate(for version: SQLCipherVersion) throws {
        if let kdfIterations, kdfIterations < 1 {
            throw DatabaseManagerError.invalidOption(name: "kdfIterations", reason: "must be at least 1, got \(kdfIterations)")
        }
        if let pageSize, !(512...65536).contains(pageSize) || pageSize & (pageSize - 1) != 0 {
            throw DatabaseManagerError.invalidOption(
                name: "pageSize", reason: "must be a power of two from 512 to 65536, got \(pageSize)")
        }
        if let compatibility, !(1...4).contains(compatibility) {
            throw DatabaseManagerError.invalidOption(name: "compatibility", reason: "must be 1 to 4, got \(compatibility)")
        }
        let v4 = SQLCipherVersion(4, 0, 0)
        for (name, isSet, requires) in [
            ("kdfAlgorithm", kdfAlgorithm != nil, v4),
            ("hmacAlgorithm", hmacAlgorithm != nil, v4),
            ("compatibility", compatibility != nil, SQLCipherVersion(4, 0, 1)),
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

/// The PBKDF2 hash: `PRAGMA cipher_kdf_algorithm` (SQLCipher 4.0+).
public enum KDFAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha1 = "PBKDF2_HMAC_SHA1"
    case sha256 = "PBKDF2_HMAC_SHA256"
    case sha512 = "PBKDF2_HMAC_SHA512"
}

/// The page HMAC hash: `PRAGMA cipher_hmac_algorithm` (SQLCipher 4.0+).
public enum HMACAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha1 = "HMAC_SHA1"
    case sha256 = "HMAC_SHA256"
    case sha512 = "HMAC_SHA512"
}

// MARK: - Description

extension CipherOptions: CustomStringConvertible {
    /// The options that are set, e.g. `cipher_page_size=1024, kdf_iter=64000, cipher_use_hmac=ON`;
    /// `defaults` when none is.
    public var description: String {
        let parts = settings.map { "\($0.pragma)=\($0.value)" }
        return parts.isEmpty ? "defaults" : parts.joined(separator: ", ")
    }
}
