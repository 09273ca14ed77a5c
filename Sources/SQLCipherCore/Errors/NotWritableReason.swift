// MARK: - NotWritableReason

/// Why a database file cannot be written (``DatabaseManagerError/notWritable(path:reason:)``):
/// what the file system says about the file, or its directory, where SQLite creates the
/// `-journal` beside it.
public enum NotWritableReason: Sendable, Equatable, CustomStringConvertible {
    /// The file or directory at `path` has the immutable flag (`chattr +i`), which stops every
    /// user, root included.
    case immutable(path: String)
    /// The file system that holds `path` is mounted read-only.
    case readOnlyFileSystem(path: String)
    /// This process's user may not write `path` (its mode or owner).
    case permissions(path: String)
    /// SQLite opened the file read-only, and the file system names no cause.
    case unknown

    /// The cause, and what to do about it.
    public var description: String {
        switch self {
        case .immutable(let path):
            "\(path) has the immutable flag (chattr +i); remove it with `chattr -i \(path)` (as root) to write again"
        case .readOnlyFileSystem(let path):
            "the file system that holds \(path) is mounted read-only; copy the database to a writable place, "
                + "or remount it read-write"
        case .permissions(let path):
            "this user may not write \(path) (its permissions or owner); give the user write access (chmod, chown)"
        case .unknown:
            "SQLite opened it read-only; check the file's permissions, flags and file system"
        }
    }
}
