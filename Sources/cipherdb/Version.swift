import SQLCipherManager

// MARK: - Version

/// `cipherdb --version`: this tool's version and the SQLCipher and SQLite it is linked with.
enum Version {
    /// cipherdb's own version: the package's release, which the library reports.
    static let cipherdb = DatabaseTools.packageVersion

    static var text: String {
        let sqlcipher = DatabaseTools.linkedSQLCipherVersion.map { "\($0)" } ?? "not linked"
        return """
            cipherdb \(cipherdb) (SQLCipherManager)
            SQLCipher \(sqlcipher)
            SQLite \(DatabaseTools.linkedSQLiteVersion ?? "unknown")
            """
    }
}
