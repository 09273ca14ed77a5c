import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Permissions

extension FileSystem {
    /// Gives `path` the permission bits of `model` (`stat`, `chmod`), limited by `mask`, and as
    /// root also its owner and group (`chown`), so that a file that replaces or copies a
    /// database is no more readable than the database was.
    static func copyAccess(from model: String, to path: String, mask: mode_t = 0o7777) throws {
        var info = stat()
        guard stat(model, &info) == 0 else { throw Failure(operation: "stat", path: model, code: errno) }
        guard chmod(path, info.st_mode & 0o7777 & mask) == 0 else {
            throw Failure(operation: "chmod", path: path, code: errno)
        }
        if geteuid() == 0, chown(path, info.st_uid, info.st_gid) != 0 {
            throw Failure(operation: "chown", path: path, code: errno)
        }
    }
}
