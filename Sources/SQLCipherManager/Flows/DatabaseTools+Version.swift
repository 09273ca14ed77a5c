// MARK: - The package's version

extension DatabaseTools {
    /// This package's release, `major.minor.patch` (semantic versioning; before 1.0 a minor
    /// release may change the public API): `"0.1.0"`. CHANGELOG.md's newest heading names the
    /// same version, and `cipherdb --version` prints it beside the linked SQLCipher and SQLite.
    ///
    /// ```swift
    /// print("SQLCipherManager \(DatabaseTools.packageVersion), SQLCipher \(DatabaseTools.linkedSQLCipherVersion.map { "\($0)" } ?? "none")")
    /// ```
    public static let packageVersion = "0.1.0"
}
