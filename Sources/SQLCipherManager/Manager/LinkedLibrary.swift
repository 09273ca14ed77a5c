import SQLCipherCore
import SQLCipherQuery

/// What the SQLCipher and SQLite linked into this process are: their versions and the key
/// derivation defaults SQLCipher applies when a configuration leaves them open. Each value is
/// read once, on an in-memory connection, and kept for the process.
enum LinkedLibrary {
    /// The linked SQLCipher's version (`PRAGMA cipher_version` on an in-memory connection), or
    /// `nil` when the process is not linked against SQLCipher; public as
    /// ``DatabaseTools/linkedSQLCipherVersion``.
    static let cipherVersion: SQLCipherVersion? = {
        guard let connection = try? Connection(path: ":memory:", mode: .readWriteCreate) else { return nil }
        defer { connection.close() }
        return try? cipherVersion(of: connection)
    }()

    /// The linked SQLite's version, `sqlite_version()` on an in-memory connection; public as
    /// ``DatabaseTools/linkedSQLiteVersion``.
    static let sqliteVersion: String? = {
        guard let connection = try? Connection(path: ":memory:", mode: .readWriteCreate) else { return nil }
        defer { connection.close() }
        return try? connection.text("SELECT sqlite_version()")
    }()

    /// The SQLCipher version a connection runs, or ``DatabaseManagerError/sqlcipherNotLinked``.
    static func cipherVersion(of connection: Connection) throws -> SQLCipherVersion {
        let text = try connection.text("PRAGMA cipher_version")
        guard let text, !text.isEmpty else { throw DatabaseManagerError.sqlcipherNotLinked }
        guard let version = SQLCipherVersion(parsing: text) else { throw DatabaseManagerError.sqlcipherNotLinked }
        return version
    }

    /// The linked SQLCipher's default `kdf_iter` (`PRAGMA cipher_default_kdf_iter`).
    static let defaultKDFIterations: Int? = defaultValue("PRAGMA cipher_default_kdf_iter").flatMap { Int($0) }

    /// The linked SQLCipher's default KDF: PBKDF2-HMAC-SHA1 before 4.0, else
    /// `PRAGMA cipher_default_kdf_algorithm`.
    static let defaultKDFAlgorithm: KDFAlgorithm? = {
        guard let version = cipherVersion else { return nil }
        guard version >= SQLCipherVersion(4, 0, 0) else { return .sha1 }
        return defaultValue("PRAGMA cipher_default_kdf_algorithm").flatMap(KDFAlgorithm.init)
    }()

    private static func defaultValue(_ pragma: String) -> String? {
        guard let connection = try? Connection(path: ":memory:", mode: .readWriteCreate) else { return nil }
        defer { connection.close() }
        return try? Database(connection: connection).scalar(String.self, pragma)
    }
}
