import Foundation

// MARK: - Why a file cannot be written

extension FileSystem {
    /// Why SQLite could not write the database at `path` (it reported `SQLITE_READONLY`): the
    /// first cause found on the file, then on its directory (where SQLite creates the
    /// `-journal`), or `nil` when none is found.
    package static func writeRefusal(at path: String) -> NotWritableReason? {
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        for candidate in [path, directory] where status(of: candidate) != nil {
            if POSIX.isOnReadOnlyFileSystem(candidate) { return .readOnlyFileSystem(path: candidate) }
            if POSIX.isImmutable(candidate) { return .immutable(path: candidate) }
            if !POSIX.isAccessible(candidate, writing: true) { return .permissions(path: candidate) }
        }
        return nil
    }
}
