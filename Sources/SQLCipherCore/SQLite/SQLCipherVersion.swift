// MARK: - SQLCipherVersion

/// A SQLCipher library version, as reported by `PRAGMA cipher_version` (for example `3.4.1`
/// or `4.6.1 community`).
public struct SQLCipherVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version: 3 for Debian 12's SQLCipher, 4 for current releases.
    public let major: Int
    /// The minor version.
    public let minor: Int
    /// The patch version (0 when `PRAGMA cipher_version` gives none).
    public let patch: Int

    /// Creates a version from its numbers.
    public init(_ major: Int, _ minor: Int, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses the leading `major.minor[.patch]` of a `PRAGMA cipher_version` string.
    public init?(parsing text: String) {
        let numeric = text.split(separator: " ").first.map(String.init) ?? ""
        let parts = numeric.split(separator: ".").map { Int($0) }
        guard parts.count >= 2, let major = parts[0], let minor = parts[1] else { return nil }
        self.init(major, minor, parts.count > 2 ? (parts[2] ?? 0) : 0)
    }

    /// `major.minor.patch`.
    public var description: String { "\(major).\(minor).\(patch)" }

    /// Orders versions by major, then minor, then patch.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}
