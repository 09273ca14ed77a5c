// MARK: - CipherSettingsCandidate
import SQLCipherCore

/// One known set of cipher settings that ``DatabaseManager/diagnoseCipherSettings(password:alsoTrying:)-(String,_)``
/// tries: a name ("SQLCipher 2 format") and the ``CipherOptions`` that differ from the linked
/// SQLCipher's defaults (`nil` fields keep them; ``CipherOptions/allowsLegacyKDFIterations`` is
/// set for the formats below 64,000 iterations, so the options open such a file as they are), applied as `PRAGMA kdf_iter`,
/// `cipher_page_size`, `cipher_use_hmac` and, on SQLCipher 4.0.1+, `cipher_compatibility`.
public struct CipherSettingsCandidate: Sendable, Hashable, CustomStringConvertible {
    /// What the set is, for example `SQLCipher 1 format with 4096-byte pages`.
    public let name: String
    /// The settings to give (through ``DatabaseConfiguration/cipher``) to open the file; the
    /// fields left `nil` are the linked SQLCipher's defaults.
    public let options: CipherOptions

    /// Creates a candidate.
    public init(name: String, options: CipherOptions) {
        self.name = name
        self.options = options
    }

    /// The settings in words, for example `kdf_iter 4000 and no HMAC`; `the defaults` when
    /// ``options`` sets nothing.
    public var summary: String {
        var parts: [String] = []
        if let compatibility = options.compatibility { parts.append("cipher_compatibility \(compatibility)") }
        if let kdfIterations = options.kdfIterations { parts.append("kdf_iter \(kdfIterations)") }
        if let pageSize = options.pageSize { parts.append("\(pageSize)-byte pages") }
        if let usesHMAC = options.usesHMAC { parts.append(usesHMAC ? "a page HMAC" : "no HMAC") }
        if let kdfAlgorithm = options.kdfAlgorithm { parts.append("cipher_kdf_algorithm \(kdfAlgorithm.rawValue)") }
        if let hmacAlgorithm = options.hmacAlgorithm { parts.append("cipher_hmac_algorithm \(hmacAlgorithm.rawValue)") }
        guard let last = parts.popLast() else { return "the defaults" }
        return parts.isEmpty ? last : parts.joined(separator: ", ") + " and " + last
    }

    /// `name (summary)`.
    public var description: String { "\(name) (\(summary))" }
}

// MARK: - The known sets

extension CipherSettingsCandidate {
    /// The page sizes tried beside each format's own.
    static let otherPageSizes = [1024, 4096, 8192, 16384]

    /// The sets the linked SQLCipher `version` can read, most likely first: each format's own
    /// settings, then the same formats with 1024-, 4096-, 8192- and 16384-byte pages (the ones
    /// that are not the format's own).
    ///
    /// - SQLCipher 3.x: its defaults (kdf_iter 64000, 1024-byte pages, HMAC-SHA1), SQLCipher 2
    ///   (kdf_iter 4000) and SQLCipher 1 (kdf_iter 4000, no HMAC): 3 formats, 12 sets.
    /// - SQLCipher 4.x: its defaults, `cipher_compatibility` 3, 2 and 1 (4.0.1+), and its own
    ///   format with SQLCipher 3's and 2's kdf_iter (64000, 4000): what `PRAGMA kdf_iter`
    ///   written for 3.x writes on 4.x, without `cipher_compatibility`. 6 formats, 24 sets
    ///   (12 before 4.0.1).
    static func known(for version: SQLCipherVersion) -> [CipherSettingsCandidate] {
        let formats = version.major >= 4 ? formats4(version) : formats3
        let own = formats.map { CipherSettingsCandidate(name: $0.name, options: $0.options) }
        let resized = formats.flatMap { format in
            otherPageSizes.filter { $0 != format.pageSize }.map { pageSize in
                var options = format.options
                options.pageSize = pageSize
                let joiner = format.name.contains(" with ") ? " and " : " with "
                return CipherSettingsCandidate(name: "\(format.name)\(joiner)\(pageSize)-byte pages", options: options)
            }
        }
        return own + resized
    }

    private typealias Format = (name: String, options: CipherOptions, pageSize: Int)

    private static let formats3: [Format] = [
        ("SQLCipher 3 defaults", CipherOptions(), 1024),
        ("SQLCipher 2 format", CipherOptions(kdfIterations: 4000, allowsLegacyKDFIterations: true), 1024),
        ("SQLCipher 1 format", CipherOptions(kdfIterations: 4000, usesHMAC: false, allowsLegacyKDFIterations: true), 1024),
    ]

    private static func formats4(_ version: SQLCipherVersion) -> [Format] {
        let current = "SQLCipher \(version.major)"
        let older: [Format] =
            version >= SQLCipherVersion(4, 0, 1)
            ? [3, 2, 1].map { major in
                ("SQLCipher \(major) format", CipherOptions(compatibility: major, allowsLegacyKDFIterations: major < 3), 1024)
            } : []
        let iterations: [Format] = [64000, 4000].map { count in
            let options = CipherOptions(kdfIterations: count, allowsLegacyKDFIterations: count < CipherOptions.minimumKDFIterations)
            return ("\(current) format with kdf_iter \(count)", options, 4096)
        }
        return [("\(current) defaults", CipherOptions(), 4096)] + older + iterations
    }
}

// MARK: - Resolving defaults

extension CipherOptions {
    /// Every setting spelled out for the linked `version`: `nil` fields take the defaults of
    /// ``compatibility`` (or of the linked major version), so two option sets that open files
    /// the same way compare equal (``allowsLegacyKDFIterations`` is no setting of the file: it is
    /// left `false`).
    func resolved(for version: SQLCipherVersion) -> CipherOptions {
        let major = compatibility ?? min(version.major, 4)
        var full: CipherOptions
        switch major {
        case 4:
            full = CipherOptions(
                kdfIterations: 256_000, pageSize: 4096, usesHMAC: true,
                kdfAlgorithm: .sha512, hmacAlgorithm: .sha512)
        case 3: full = CipherOptions(kdfIterations: 64000, pageSize: 1024, usesHMAC: true)
        case 2: full = CipherOptions(kdfIterations: 4000, pageSize: 1024, usesHMAC: true)
        default: full = CipherOptions(kdfIterations: 4000, pageSize: 1024, usesHMAC: false)
        }
        if major < 4, version.major >= 4 { (full.kdfAlgorithm, full.hmacAlgorithm) = (.sha1, .sha1) }
        full.kdfIterations = kdfIterations ?? full.kdfIterations
        full.pageSize = pageSize ?? full.pageSize
        full.usesHMAC = usesHMAC ?? full.usesHMAC
        full.kdfAlgorithm = kdfAlgorithm ?? full.kdfAlgorithm
        full.hmacAlgorithm = hmacAlgorithm ?? full.hmacAlgorithm
        return full
    }
}
