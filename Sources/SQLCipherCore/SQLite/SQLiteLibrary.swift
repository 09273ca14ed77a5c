internal import CSQLCipher

// MARK: - SQLiteLibrary

/// The SQLite library linked at run time (not the headers compiled against): what decides
/// which SQL a feature may use (UPSERT needs 3.24, for example).
package enum SQLiteLibrary {
    /// `sqlite3_libversion_number()`: 3015002 for 3.15.2.
    static let versionNumber = Int(sqlite3_libversion_number())

    /// `true` when the linked SQLite is `major.minor.patch` or newer.
    package static func isAtLeast(_ major: Int, _ minor: Int, _ patch: Int = 0) -> Bool {
        versionNumber >= major * 1_000_000 + minor * 1_000 + patch
    }

    /// `true` when the linked SQLite was built with `option`, named without its `SQLITE_`
    /// prefix (`"ENABLE_FTS5"`): `sqlite3_compileoption_used`.
    static func isBuilt(with option: String) -> Bool {
        sqlite3_compileoption_used(option) != 0
    }

    /// SQL that only some SQLite versions or builds understand.
    package enum Feature: CaseIterable, Sendable {
        /// `INSERT … ON CONFLICT … DO UPDATE`: 3.24.
        case upsert
        /// `INSERT … RETURNING`: 3.35.
        case returning
        /// `CREATE TABLE … STRICT`: 3.37.
        case strictTables
        /// `json_extract` and the other JSON functions: built in from 3.38 (unless built
        /// with `SQLITE_OMIT_JSON`), before that only in a build with `SQLITE_ENABLE_JSON1`.
        case jsonFunctions
        /// The `->` and `->>` operators: 3.38, with the JSON functions.
        case jsonOperators
        /// `CREATE VIRTUAL TABLE … USING fts5`: a build with `SQLITE_ENABLE_FTS5`.
        case fts5
    }

    /// `true` when the linked SQLite has `feature`.
    package static func has(_ feature: Feature) -> Bool {
        let builtInJSON = isAtLeast(3, 38) && !isBuilt(with: "OMIT_JSON")
        return switch feature {
        case .upsert: isAtLeast(3, 24)
        case .returning: isAtLeast(3, 35)
        case .strictTables: isAtLeast(3, 37)
        case .jsonFunctions: builtInJSON || isBuilt(with: "ENABLE_JSON1")
        case .jsonOperators: builtInJSON
        case .fts5: isBuilt(with: "ENABLE_FTS5")
        }
    }
}
