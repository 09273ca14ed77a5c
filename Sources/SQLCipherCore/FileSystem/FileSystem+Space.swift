// MARK: - Sizes and free space

extension FileSystem {
    /// The suffixes of the files SQLite keeps beside a database.
    package static let sidecarSuffixes = ["-journal", "-wal", "-shm"]

    /// The size of a file in bytes (`stat`), or `nil` when there is no file.
    package static func size(of path: String) -> Int64? { status(of: path)?.size }

    /// A file's device, inode, size and modification time (`stat`), which change when the file
    /// is replaced or written; `nil` when there is no file.
    package static func stamp(of path: String) -> String? {
        status(of: path).map { "\($0.device):\($0.inode):\($0.size):\($0.modified)" }
    }

    /// `true` when the file at `path` has the size and modification time `stamp`
    /// (``stamp(of:)``) recorded: nobody wrote to it since, whichever name it has now.
    package static func stamp(_ stamp: String, describesWritesOf path: String) -> Bool {
        guard let current = self.stamp(of: path) else { return false }
        return stamp.split(separator: ":").dropFirst(2) == current.split(separator: ":").dropFirst(2)
    }

    /// The bytes an unprivileged process may still write in the directory (`statvfs`:
    /// `f_bavail × f_frsize`).
    package static func availableSpace(in directory: String) throws(Failure) -> Int64 {
        try attempt("statvfs", directory) { () throws(Errno) in try POSIX.availableBytes(in: directory) }
    }

    /// The database file and its `-journal`, `-wal` and `-shm` together, in bytes.
    package static func databaseSize(of path: String) -> Int64 {
        ([""] + sidecarSuffixes).reduce(0) { $0 + (size(of: path + $1) ?? 0) }
    }

    /// Removes a temporary database of ours (an export's copy, a create's staging file) and
    /// the files SQLite keeps beside it; missing files are fine. A symbolic link, something
    /// other than a file or another user's file at one of the names was not left by us: it is
    /// refused (``Failure/refusal``) and left alone — with `leavingForeign` (a rollback) left
    /// without an error, the rest still removed.
    package static func removeDatabaseFiles(_ path: String, leavingForeign: Bool = false) throws(Failure) {
        var failure: Failure?
        for suffix in [""] + sidecarSuffixes {
            do throws(Failure) { try removeLeftover(path + suffix, leavingForeign: leavingForeign) } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }
}
