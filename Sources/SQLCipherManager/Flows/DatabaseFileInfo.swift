import Foundation
import SQLCipherCore

// MARK: - DatabaseFileInfo

/// What is at a database path, found without a key and without opening it with SQLite, so
/// nothing is created or changed: the file system's answer plus the 100-byte header of a
/// plaintext SQLite file. An SQLCipher file starts with random salt, so it cannot be told from
/// a file that is no database at all until a key opens it.
///
/// ```swift
/// let info = DatabaseTools.inspectFile(at: url)
/// if info.kind == .plaintextSQLite { try DatabaseTools.encryptPlaintextDatabase(at: url, password: password) }
/// ```
public struct DatabaseFileInfo: Sendable, Equatable {
    /// The kinds of thing a path can hold (``DatabaseFileKind``).
    public typealias Kind = DatabaseFileKind

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
    /// For a plaintext SQLite file: the number of pages SQLite uses — the header's count
    /// (offset 28) when SQLite trusts it (non-zero, and the change counter at offset 24 equals
    /// the version-valid-for number at offset 92), otherwise the file size over the page size,
    /// as SQLite computes it then.
    public let plaintextPageCount: Int?
    /// For a plaintext SQLite file: the page count its header holds (offset 28), which SQLite
    /// ignores when ``plaintextHeaderPageCountIsStale``.
    public let plaintextHeaderPageCount: Int?
    /// For a plaintext SQLite file: `true` when SQLite ignores the header's page count (zero, or
    /// written by a program that did not update offset 92) and uses the file size instead.
    public let plaintextHeaderPageCountIsStale: Bool?
    /// For a plaintext SQLite file: `true` when the header's page count is one SQLite trusts
    /// (not stale) but it is more than the file holds: a damaged or truncated file, which recent
    /// SQLite refuses as malformed (older versions read the missing pages as never used);
    /// ``plaintextPageCount`` is then the pages the file holds.
    public let plaintextHeaderPageCountExceedsFile: Bool?
    /// For a plaintext SQLite file: `user_version` from its header (offset 60).
    public let plaintextUserVersion: Int?

    /// Why ``DatabaseManager/open(password:)`` would refuse the file before trying a key, or
    /// `nil` when only a key can tell (the same diagnosis the open runs).
    public var problemBeforeUnlock: DatabaseManagerError? { DatabaseManagerError(problemBeforeUnlockAt: path) }

    /// Why ``DatabaseTools/encryptPlaintextDatabase(at:to:password:configuration:progress:)-(_,_,String,_,_)``
    /// would refuse the file before reading a page, or `nil` for a plaintext SQLite database (the
    /// same check the encryption runs): ``DatabaseManagerError/notPlaintextDatabase(path:)`` for
    /// an empty or non-plaintext file, otherwise ``problemBeforeUnlock``.
    public var problemBeforeEncrypting: DatabaseManagerError? { DatabaseManagerError(problemBeforeEncryptingAt: path) }

    init(path: String) {
        let file = DatabaseFile(path: path)
        self.path = path
        size = file.size
        pendingOperation = PendingOperation(atResolvedPath: FileSystem.resolvedPath(path))
        kind = file.kind()
        let header = kind == .plaintextSQLite ? file.header(count: 100).flatMap { $0.count == 100 ? $0 : nil } : nil
        plaintextPageSize = header.map(DatabaseFile.pageSize(inHeader:))
        let headerCount = header.map { DatabaseFile.headerField($0, at: 28, count: 4) }
        // SQLite's rule (btree.c, lockBtree): the header's count is valid only when non-zero
        // and the change counter (24) equals the version-valid-for number (92).
        let stale = header.map { $0[24..<28] != $0[92..<96] || DatabaseFile.headerField($0, at: 28, count: 4) == 0 }
        plaintextHeaderPageCount = headerCount
        plaintextHeaderPageCountIsStale = stale
        let pageSize = plaintextPageSize ?? 0
        let filePages = size.flatMap { size in pageSize > 0 ? Int(size / Int64(pageSize)) : nil }
        // A trusted count larger than the file: damaged (SQLite 3.46's lockBtree says SQLITE_CORRUPT).
        let exceeds = stale.map { !$0 && (headerCount ?? 0) > (filePages ?? Int.max) }
        plaintextHeaderPageCountExceedsFile = exceeds
        plaintextPageCount = stale == true || exceeds == true ? filePages : headerCount
        plaintextUserVersion = header.map { DatabaseFile.headerField($0, at: 60, count: 4) }
    }
}
