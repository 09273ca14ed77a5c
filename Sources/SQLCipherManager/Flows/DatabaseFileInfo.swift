import Foundation

// MARK: - DatabaseFileInfo

/// What is at a database path, found without a key and without opening it with SQLite, so
/// nothing is created or changed: the file system's answer plus the 100-byte header of a
/// plaintext SQLite file. An SQLCipher file starts with random salt, so it cannot be told from
/// a file that is no database at all until a key opens it.
///
/// ```swift
/// let info = DatabaseManager.inspectFile(at: url)
/// if info.kind == .plaintextSQLite { try DatabaseManager.encryptPlaintextDatabase(at: url, password: password) }
/// ```
public struct DatabaseFileInfo: Sendable, Equatable {
    /// The kinds of thing a path can hold.
    public enum Kind: Sendable, Equatable {
        /// No file; its folder exists.
        case missing
        /// Neither the file nor its folder exists.
        case parentFolderMissing
        /// A folder.
        case folder
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

    /// The path inspected.
    public let path: String
    /// What is there.
    public let kind: Kind
    /// The size in bytes, when there is a file.
    public let size: Int64?
    /// A rekey, encrypt or decrypt recorded beside the file that has not finished (running now,
    /// or interrupted and waiting for recovery), `nil` when there is none.
    public let pendingOperation: PendingOperation?
    /// For a plaintext SQLite file: the page size from its header (offset 16).
    public let plaintextPageSize: Int?
    /// For a plaintext SQLite file: the page count from its header (offset 28).
    public let plaintextPageCount: Int?
    /// For a plaintext SQLite file: `user_version` from its header (offset 60).
    public let plaintextUserVersion: Int?

    /// Why ``DatabaseManager/open(password:)`` would refuse the file before trying a key, or
    /// `nil` when only a key can tell (the same diagnosis the open runs).
    public var problemBeforeUnlock: DatabaseManagerError? { DatabaseManagerError(problemBeforeUnlockAt: path) }

    init(path: String) {
        let file = DatabaseFile(path: path)
        self.path = path
        size = file.size
        pendingOperation = PendingOperation(atResolvedPath: FileSystem.resolvedPath(path))
        let damaged = file.kind() == .plaintextSQLite && file.plaintextHeaderProblem != nil
        let header = file.kind() == .plaintextSQLite && !damaged ? file.header(count: 100) ?? [] : []
        kind = damaged ? .damagedSQLiteHeader : Self.kind(of: file.kind())
        func field(_ offset: Int, _ count: Int) -> Int? {
            header.count == 100 ? header[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) } : nil
        }
        plaintextPageSize = field(16, 2).map { $0 == 1 ? 65536 : $0 }
        plaintextPageCount = field(28, 4)
        plaintextUserVersion = field(60, 4)
    }

    private static func kind(of kind: DatabaseFile.Kind) -> Kind {
        switch kind {
        case .missing: .missing
        case .parentMissing: .parentFolderMissing
        case .directory: .folder
        case .unreadable: .unreadable
        case .special: .specialFile
        case .empty: .empty
        case .plaintextSQLite: .plaintextSQLite
        case .opaque: .encryptedOrNotADatabase
        }
    }
}

extension DatabaseManager {
    /// Inspects the file at `url` without a key and without SQLite: see ``DatabaseFileInfo``.
    public static func inspectFile(at url: URL) -> DatabaseFileInfo {
        DatabaseFileInfo(path: url.path)
    }

    /// Inspects the file at a path as given (relative paths stay relative in messages).
    public static func inspectFile(atPath path: String) -> DatabaseFileInfo {
        DatabaseFileInfo(path: path)
    }
}
