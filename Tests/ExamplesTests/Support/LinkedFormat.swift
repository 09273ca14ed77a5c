import SQLCipherManager

/// What the SQLCipher that cipherdb links (the same build as these tests) writes by default, read
/// at run time (`PRAGMA cipher_version`), for tests that place bytes by page or count known sets.
enum LinkedFormat {
    /// The linked SQLCipher's major version: 4, or 3 for Debian 12's own.
    static var major: Int { DatabaseTools.linkedSQLCipherVersion?.major ?? 3 }

    /// `true` on SQLCipher 4.x.
    static var isSQLCipher4: Bool { major >= 4 }

    /// The page size of a new database with no `cipher_page_size`: 4096 on 4.x, 1024 on 3.x.
    static var pageSize: Int { isSQLCipher4 ? 4096 : 1024 }

    /// How many sets the settings diagnosis knows (`DatabaseTools.knownCipherSettings`).
    static var knownSetCount: Int { DatabaseTools.knownCipherSettings.count }
}
