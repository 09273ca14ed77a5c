import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Sizes and free space

extension FileSystem {
    /// The suffixes of the files SQLite keeps beside a database.
    static let sidecarSuffixes = ["-journal", "-wal", "-shm"]

    /// The size of a file in bytes (`stat`), or `nil` when there is no file.
    static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// A file's device, inode, size and modification time (`stat`), which change when the file
    /// is replaced or written; `nil` when there is no file.
    static func stamp(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(modified.tv_sec).\(modified.tv_nsec)"
    }

    /// The bytes an unprivileged process may still write in the folder (`statvfs`:
    /// `f_bavail × f_frsize`).
    static func availableSpace(in directory: String) throws -> Int64 {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else {
            throw Failure(operation: "statvfs", path: directory, code: errno)
        }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// The database file and its `-journal`, `-wal` and `-shm` together, in bytes.
    static func databaseSize(of path: String) -> Int64 {
        ([""] + sidecarSuffixes).reduce(0) { $0 + (size(of: path + $1) ?? 0) }
    }

    /// Removes a database file and the files SQLite keeps beside it; missing files are fine.
    static func removeDatabaseFiles(_ path: String) throws {
        for suffix in [""] + sidecarSuffixes {
            try remove(path + suffix)
        }
    }

}
