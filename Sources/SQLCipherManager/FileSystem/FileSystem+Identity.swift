internal import CCrypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Identity, real paths, digests, other processes' locks

/// A file's device and inode: what stays the same while a file is written and changes when
/// another file is renamed over its path.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
}

extension FileSystem {
    /// The identity of the file at `path`, following symbolic links (`stat`); `nil` when there is none.
    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The path with every symbolic link resolved (`realpath`), as SQLite itself resolves it
    /// (since 3.10) before naming its `-journal`, `-wal` and `-shm`: the files beside the real
    /// file are the ones that count. For a path that does not exist yet, its folder is
    /// resolved and the name kept. A path that cannot be resolved is returned as given.
    static func resolvedPath(_ path: String) -> String {
        if let real = realPath(path) { return real }
        let name = (path as NSString).lastPathComponent
        let parent = (path as NSString).deletingLastPathComponent
        guard !name.isEmpty, let folder = realPath(parent.isEmpty ? "." : parent) else { return path }
        return (folder as NSString).appendingPathComponent(name)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What proves, later, that a file is still the very one seen now: its device, inode,
    /// size, modification and status-change times (nanoseconds; any write or replacement
    /// changes them), and the SHA-256 (libcrypto's EVP interface) of its first and last 4 KiB.
    /// Costs one `stat` and two small reads, whatever the file's size.
    static func fingerprint(of path: String) throws -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(operation: "stat", path: path, code: errno) }
        #if canImport(Darwin)
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(fd) }
        guard let context = EVP_MD_CTX_new() else { throw Failure(operation: "sha256", path: path, code: ENOMEM) }
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        let block = 4096
        var buffer = [UInt8](repeating: 0, count: block)
        for offset in Set([0, max(0, Int(info.st_size) - block)]).sorted() {
            let count = pread(fd, &buffer, block, off_t(offset))
            guard count >= 0 else { throw Failure(operation: "read", path: path, code: errno) }
            EVP_DigestUpdate(context, buffer, count)
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        let hex = digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(modified.tv_sec).\(modified.tv_nsec)"
            + ":\(changed.tv_sec).\(changed.tv_nsec):\(hex)"
    }

    /// A descriptor kept open on a file to ask who else locks it (`fcntl(F_GETLK)`).
    ///
    /// POSIX drops every lock this process holds on a file when any descriptor of it is
    /// closed, so a probe must be opened only once no connection of this process holds locks
    /// on that file it still needs, and closed only after they are all gone.
    final class LockProbe {
        private let descriptor: Int32

        /// Opens `path` read-only, or `nil` when there is no such file.
        init?(path: String) {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
        }

        deinit { close(descriptor) }

        /// The process id of another process that holds a POSIX lock conflicting with an
        /// exclusive lock on `count` bytes at `offset`, or `nil`. Locks of this process are
        /// never reported.
        ///
        /// SQLite holds a shared lock on byte 128 of a WAL database's `-shm` (its "DMS" byte)
        /// for as long as a connection has the database open, so this tells whether another
        /// program has a WAL database open.
        func otherProcessLocking(offset: Int, count: Int = 1) -> pid_t? {
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = off_t(offset)
            lock.l_len = off_t(count)
            guard fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
            return lock.l_pid
        }
    }
}
