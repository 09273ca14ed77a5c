import Foundation
import SQLCipherManager

// MARK: - FileProbe

/// What is at a path, from the file system and the first 100 bytes only — no password, no
/// SQLite connection, nothing created. A plaintext SQLite file starts with
/// `"SQLite format 3\0"`; an SQLCipher file starts with random salt, so it looks like no
/// database at all until a key opens it.
struct FileProbe {
    /// Facts from a plaintext SQLite header (big-endian fields at offsets 16, 28 and 60).
    struct PlaintextHeader: Equatable {
        let pageSize: Int
        let pageCount: Int
        let userVersion: Int
    }

    enum Kind: Equatable {
        case missing
        case parentMissing
        case directory
        case unreadable
        case empty
        case plaintext(PlaintextHeader)
        /// Encrypted, or not a database: only a key can tell.
        case opaque
    }

    static let magic = Array("SQLite format 3".utf8) + [0]

    let path: String
    let kind: Kind
    let size: Int64?

    init(path: String) {
        self.path = path
        size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        kind = Self.classify(path: path, size: size)
    }

    private static func classify(path: String, size: Int64?) -> Kind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let parent = (path as NSString).deletingLastPathComponent
            return FileManager.default.fileExists(atPath: parent.isEmpty ? "." : parent) ? .missing : .parentMissing
        }
        if isDirectory.boolValue { return .directory }
        guard let handle = FileHandle(forReadingAtPath: path),
              let header = try? handle.read(upToCount: 100).map(Array.init) ?? [] else { return .unreadable }
        try? handle.close()
        if size == 0 || header.isEmpty { return .empty }
        guard header.count == 100, Array(header.prefix(16)) == magic else { return .opaque }
        let pageSize = bigEndian(header, at: 16, count: 2)
        return .plaintext(PlaintextHeader(
            pageSize: pageSize == 1 ? 65536 : pageSize,
            pageCount: bigEndian(header, at: 28, count: 4),
            userVersion: bigEndian(header, at: 60, count: 4)))
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Why the file cannot be an encrypted database to unlock, found before asking for a password.
    var problemBeforeUnlock: DatabaseManagerError? {
        switch kind {
        case .missing: .fileNotFound(path: path)
        case .parentMissing: .parentDirectoryMissing(path: path)
        case .directory: .isDirectory(path: path)
        case .empty: .notADatabase(path: path, reason: "the file is empty (0 bytes)")
        case .plaintext: .plaintextDatabase(path: path)
        case .unreadable, .opaque: nil
        }
    }

    /// Why the file cannot be encrypted as a plaintext SQLite database, found before asking
    /// for a password.
    var plaintextProblem: DatabaseManagerError? {
        switch kind {
        case .plaintext: nil
        case .empty, .opaque: .notPlaintextDatabase(path: path)
        default: problemBeforeUnlock
        }
    }

    /// A one-line description for `info`.
    var summary: String {
        switch kind {
        case .missing: "missing (no file)"
        case .parentMissing: "missing (its folder does not exist)"
        case .directory: "a folder, not a database file"
        case .unreadable: "unreadable (permission denied)"
        case .empty: "empty file (0 bytes): not a database"
        case .plaintext: "plaintext SQLite database (not encrypted)"
        case .opaque: "encrypted SQLCipher database, or not a database (no plaintext SQLite header)"
        }
    }
}
