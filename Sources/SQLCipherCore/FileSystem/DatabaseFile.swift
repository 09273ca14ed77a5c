import Foundation

// MARK: - DatabaseFile

/// What is at a database path, read without opening it with SQLite (so nothing is created):
/// the one inspection behind diagnosis, the flows and the public ``DatabaseFileInfo``.
package struct DatabaseFile {
    /// SQLite's 16-byte plaintext header, `"SQLite format 3\0"`.
    package static let plaintextHeader: [UInt8] = Array("SQLite format 3".utf8) + [0]

    package let path: String

    package init(path: String) { self.path = path }

    package var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// The file's size in bytes, following symbolic links (`stat`: the size of the file a link
    /// names, not the link's), or `nil` when there is none.
    package var size: Int64? { FileSystem.size(of: path) }

    /// The first `count` bytes of the file.
    ///
    /// Read through SQLite's VFS (``SQLiteVFS``), so that reading the header of a database
    /// that a connection of this process has open never drops that connection's locks.
    package func header(count: Int = 16) -> [UInt8]? {
        SQLiteVFS.prefix(of: path, count: count)
    }

    /// `true` when the file starts with SQLite's plaintext header.
    package var isPlaintextSQLite: Bool { header().map { $0 == Self.plaintextHeader } ?? false }

    /// Classifies the path: `stat` (following symbolic links), `access(R_OK)`, then the header.
    /// A named pipe, socket or device is never read, since reading one can block forever.
    package func kind() -> DatabaseFileKind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let parent = (path as NSString).deletingLastPathComponent
            return FileManager.default.fileExists(atPath: parent.isEmpty ? "." : parent) ? .missing : .parentDirectoryMissing
        }
        if isDirectory.boolValue { return .directory }
        guard FileSystem.status(of: path)?.isRegularFile == true else { return .specialFile }
        guard POSIX.isAccessible(path, writing: false), let size, let header = header() else { return .unreadable }
        if size == 0 { return .empty }
        // SQLCipher 4 with a plaintext header (HeaderSaltFile), its salt kept beside it.
        if header == Self.plaintextHeader, HeaderSaltFile.hasPlaintextHeaderForm(path) { return .encryptedOrNotADatabase }
        if header == Self.plaintextHeader { return plaintextHeaderProblem == nil ? .plaintextSQLite : .damagedSQLiteHeader }
        return .encryptedOrNotADatabase
    }

    /// The directory that holds the file.
    package var directory: String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }
}
