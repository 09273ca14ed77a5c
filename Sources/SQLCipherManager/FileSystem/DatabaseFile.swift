import Foundation

// MARK: - DatabaseFile

/// What is at a database path, read without opening it with SQLite (so nothing is created).
struct DatabaseFile {
    /// SQLite's 16-byte plaintext header, `"SQLite format 3\0"`.
    static let plaintextHeader: [UInt8] = Array("SQLite format 3".utf8) + [0]

    enum Kind: Equatable {
        case missing
        case directory
        case parentMissing
        case unreadable
        case empty
        case plaintextSQLite
        /// A named pipe, socket or device: never read, since reading one can block forever.
        case special
        /// Neither empty nor plaintext: encrypted, or not a database at all.
        case opaque(size: Int64)
    }

    let path: String

    init(path: String) { self.path = path }

    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// The file's size in bytes, following symbolic links (`stat`: the size of the file a link
    /// names, not the link's), or `nil` when there is none.
    var size: Int64? { FileSystem.size(of: path) }

    /// The first `count` bytes of the file.
    ///
    /// Read through SQLite's VFS (``SQLiteVFS``), so that reading the header of a database
    /// that a connection of this process has open never drops that connection's locks.
    func header(count: Int = 16) -> [UInt8]? {
        SQLiteVFS.prefix(of: path, count: count)
    }

    /// `true` when the file starts with SQLite's plaintext header.
    var isPlaintextSQLite: Bool { header().map { $0 == Self.plaintextHeader } ?? false }

    /// Classifies the path.
    func kind() -> Kind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let parent = (path as NSString).deletingLastPathComponent
            return FileManager.default.fileExists(atPath: parent.isEmpty ? "." : parent) ? .missing : .parentMissing
        }
        if isDirectory.boolValue { return .directory }
        guard isRegularFile else { return .special }
        guard access(path, R_OK) == 0, let size, let header = header() else { return .unreadable }
        if size == 0 { return .empty }
        if header == Self.plaintextHeader { return .plaintextSQLite }
        return .opaque(size: size)
    }

    /// `true` for a regular file, following symbolic links (`stat`).
    private var isRegularFile: Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The folder that holds the file.
    var directory: String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }
}
