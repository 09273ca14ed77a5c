// MARK: - DatabaseFileKind

/// What a path holds, as ``DatabaseTools/inspectFile(at:)`` finds it without a key and without
/// opening it with SQLite (`stat`, `access`, and the first 100 bytes read through SQLite's VFS):
/// ``DatabaseFileInfo/kind``. The same classification decides, before any key is tried, why an
/// open, create or encrypt refuses a path.
public enum DatabaseFileKind: Sendable, Equatable {
    /// No file; its directory exists.
    case missing
    /// Neither the file nor its directory exists.
    case parentDirectoryMissing
    /// A directory.
    case directory
    /// The process may not read it.
    case unreadable
    /// A named pipe, socket or device (never read: reading one can block forever).
    case specialFile
    /// 0 bytes.
    case empty
    /// Starts with `"SQLite format 3\0"`: an unencrypted SQLite database.
    case plaintextSQLite
    /// Starts with `"SQLite format 3\0"`, but the rest of the 100-byte header is not SQLite's
    /// (or the file is shorter than its first page): not a database of either kind.
    case damagedSQLiteHeader
    /// Anything else: an SQLCipher database, or not a database at all.
    case encryptedOrNotADatabase
}

extension DatabaseFileKind: CustomStringConvertible {
    /// The kind in a few words for a person, such as `cipherdb info` prints: `"plaintext SQLite
    /// database (not encrypted)"`, `"missing (its directory does not exist)"`.
    public var description: String {
        switch self {
        case .missing: "missing (no file)"
        case .parentDirectoryMissing: "missing (its directory does not exist)"
        case .directory: "a directory, not a database file"
        case .unreadable: "unreadable (permission denied)"
        case .specialFile: "not a regular file (a pipe, socket or device): not a database"
        case .empty: "empty file (0 bytes): not a database"
        case .plaintextSQLite: "plaintext SQLite database (not encrypted)"
        case .damagedSQLiteHeader: "starts with SQLite's header, but the header is damaged or cut short: not a database"
        case .encryptedOrNotADatabase: "encrypted SQLCipher database, or not a database (no plaintext SQLite header)"
        }
    }
}
