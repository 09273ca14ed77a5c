// MARK: - FileStatus

/// What `stat` says about a file, in Swift types (made from the C structure in `POSIX.swift`).
struct FileStatus: Sendable, Equatable {
    /// A file's time with nanoseconds (`st_mtim` / `st_ctim`).
    struct Time: Sendable, Equatable, CustomStringConvertible {
        let seconds: Int64
        let nanoseconds: Int64
        var description: String { "\(seconds).\(nanoseconds)" }
    }

    let device: UInt64
    let inode: UInt64
    let size: Int64
    /// The permission bits (`st_mode & 0o7777`).
    let permissions: UInt32
    let owner: UInt32
    let group: UInt32
    let isRegularFile: Bool
    let isFolder: Bool
    /// The path itself is a symbolic link (only `lstat` sees this).
    let isSymbolicLink: Bool
    /// The last write (`st_mtim`).
    let modified: Time
    /// The last change of content or metadata (`st_ctim`).
    let changed: Time

    /// The file's device and inode.
    var identity: FileIdentity { FileIdentity(device: device, inode: inode) }
}
