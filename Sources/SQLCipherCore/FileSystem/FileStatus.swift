// MARK: - FileStatus

/// What `stat` says about a file, in Swift types (made from the C structure in `POSIX.swift`).
package struct FileStatus: Sendable, Equatable {
    /// A file's time with nanoseconds (`st_mtim` / `st_ctim`).
    struct Time: Sendable, Equatable, CustomStringConvertible {
        let seconds: Int64
        let nanoseconds: Int64
        package var description: String { "\(seconds).\(nanoseconds)" }
    }

    let device: UInt64
    let inode: UInt64
    package let size: Int64
    /// The permission bits (`st_mode & 0o7777`).
    package let permissions: UInt32
    package let owner: UInt32
    let group: UInt32
    package let isRegularFile: Bool
    package let isDirectory: Bool
    /// The path itself is a symbolic link (only `lstat` sees this).
    let isSymbolicLink: Bool
    /// The last write (`st_mtim`).
    let modified: Time
    /// The last change of content or metadata (`st_ctim`).
    let changed: Time

    /// The file's device and inode.
    package var identity: FileIdentity { FileIdentity(device: device, inode: inode) }
}
