// MARK: - Permissions

extension FileSystem {
    /// Gives `path` the permission bits of `model` (`stat`, `chmod`), limited by `mask`, and as
    /// root also its owner and group (`chown`), so that a file that replaces or copies a
    /// database is no more readable than the database was.
    package static func copyAccess(from model: String, to path: String, mask: UInt32 = 0o7777) throws(Failure) {
        let info = try attempt("stat", model) { () throws(Errno) in try POSIX.status(model) }
        try attempt("chmod", path) { () throws(Errno) in try POSIX.setMode(path, info.permissions & mask) }
        if POSIX.effectiveUserID == 0 {
            try attempt("chown", path) { () throws(Errno) in try POSIX.setOwner(path, user: info.owner, group: info.group) }
        }
    }
}
