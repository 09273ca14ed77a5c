import Foundation
import SQLCipherManager

// MARK: - FileProbe

/// What is at a path — the library's keyless inspection (`DatabaseManager.inspectFile`) plus
/// the wording `info` and the pre-password checks need. Nothing is created or opened.
struct FileProbe {
    let info: DatabaseFileInfo

    init(path: String) {
        info = DatabaseManager.inspectFile(atPath: path)
    }

    var path: String { info.path }
    var kind: DatabaseFileInfo.Kind { info.kind }
    var size: Int64? { info.size }

    /// Why the file cannot be an encrypted database to unlock, found before asking for a password.
    var problemBeforeUnlock: DatabaseManagerError? { info.problemBeforeUnlock }

    /// Why the file cannot be encrypted as a plaintext SQLite database, found before asking
    /// for a password.
    var plaintextProblem: DatabaseManagerError? {
        switch kind {
        case .plaintextSQLite: nil
        case .empty, .encryptedOrNotADatabase: .notPlaintextDatabase(path: path)
        default: problemBeforeUnlock
        }
    }

    /// A one-line description for `info`.
    var summary: String {
        switch kind {
        case .missing: "missing (no file)"
        case .parentFolderMissing: "missing (its folder does not exist)"
        case .folder: "a folder, not a database file"
        case .unreadable: "unreadable (permission denied)"
        case .specialFile: "not a regular file (a pipe, socket or device): not a database"
        case .empty: "empty file (0 bytes): not a database"
        case .plaintextSQLite: "plaintext SQLite database (not encrypted)"
        case .damagedSQLiteHeader: "starts with SQLite's header, but the header is damaged or cut short: not a database"
        case .encryptedOrNotADatabase: "encrypted SQLCipher database, or not a database (no plaintext SQLite header)"
        }
    }
}
