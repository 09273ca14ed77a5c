// MARK: - Sizes and free space

extension FileSystem {
    /// The suffixes of the files SQLite keeps beside a database.
    static let sidecarSuffixes = ["-journal", "-wal", "-shm"]

    /// The size of a file in bytes (`stat`), or `nil` when there is no file.
    static func size(of path: String) -> Int64? { status(of: path)?.size }

    /// A file's device, inode, size and modification time (`stat`), which change when the file
    /// is replaced or written; `nil` when there is no file.
    static func stamp(of path: String) -> String? {
        status(of: path).map { "\($0.device):\($0.inode):\($0.size):\($0.modified)" }
    }

    /// `true` when `stamp` (``stamp(of:)``) was taken of the file now at `path`: the same
    /// device and inode, whatever its size and modification time since.
    static func stamp(_ stamp: String, isOf path: String) -> Bool {
        guard let identity = identity(of: path) else { return false }
        return stamp.hasPrefix("\(identity.device):\(identity.inode):")
    }

    /// The bytes an unprivileged process may still write in the folder (`statvfs`:
    /// `f_bavail × f_frsize`).
    static func availableSpace(in directory: String) throws(Failure) -> Int64 {
        try attempt("statvfs", directory) { () throws(Errno) in try POSIX.availableBytes(in: directory) }
    }

    /// The database file and its `-journal`, `-wal` and `-shm` together, in bytes.
    static func databaseSize(of path: String) -> Int64 {
        ([""] + sidecarSuffixes).reduce(0) { $0 + (size(of: path + $1) ?? 0) }
    }

    /// Removes a database file and the files SQLite keeps beside it; missing files are fine.
    static func removeDatabaseFiles(_ path: String) throws(Failure) {
        for suffix in [""] + sidecarSuffixes {
            try remove(path + suffix)
        }
    }
}
