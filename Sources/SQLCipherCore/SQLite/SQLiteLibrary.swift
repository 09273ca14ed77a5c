internal import CSQLCipher

// MARK: - SQLiteLibrary

/// The SQLite library linked at run time (not the headers compiled against): what decides
/// which SQL a feature may use (UPSERT needs 3.24, for example).
package enum SQLiteLibrary {
    /// `sqlite3_libversion_number()`: 3015002 for 3.15.2.
    package static let versionNumber = Int(sqlite3_libversion_number())

    /// `true` when the linked SQLite is `major.minor.patch` or newer.
    package static func isAtLeast(_ major: Int, _ minor: Int, _ patch: Int = 0) -> Bool {
        versionNumber >= major * 1_000_000 + minor * 1_000 + patch
    }
}
