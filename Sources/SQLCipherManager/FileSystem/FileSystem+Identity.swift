import Foundation

// MARK: - Identity, real paths, digests, other processes' locks

/// A file's device and inode: what stays the same while a file is written and changes when
/// another file is renamed over its path.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
}

extension FileSystem {
    /// The identity of the file at `path`, following symbolic links (`stat`); `nil` when there is none.
    static func identity(of path: String) -> FileIdentity? { status(of: path)?.identity }

    /// What `stat` says about the file at `path`, following symbolic links; `nil` when there is none.
    static func status(of path: String) -> FileStatus? { try? POSIX.status(path) }

    /// The path with every symbolic link resolved (`realpath`), as SQLite itself resolves it
    /// (since 3.10) before naming its `-journal`, `-wal` and `-shm`: the files beside the real
    /// file are the ones that count. For a path that does not exist yet, its folder is
    /// resolved and the name kept. A path that cannot be resolved is returned as given.
    static func resolvedPath(_ path: String) -> String {
        if let real = POSIX.realPath(path) { return real }
        let name = (path as NSString).lastPathComponent
        let parent = (path as NSString).deletingLastPathComponent
        guard !name.isEmpty, let folder = POSIX.realPath(parent.isEmpty ? "." : parent) else { return path }
        return (folder as NSString).appendingPathComponent(name)
    }

    /// What proves, later, that a file is still the very one seen now: its device, inode,
    /// size, modification and status-change times (nanoseconds; any write or replacement
    /// changes them), and the SHA-256 (libcrypto's EVP interface) of its first and last 4 KiB.
    /// Costs one `stat` and two small reads, whatever the file's size.
    static func fingerprint(of path: String) throws(Failure) -> String {
        let info = try attempt("stat", path) { () throws(Errno) in try POSIX.status(path) }
        let fd = try attempt("open", path) { () throws(Errno) in try POSIX.open(path, .readOnly) }
        defer { POSIX.close(fd) }
        guard let digest = SHA256Digest() else { throw Failure(operation: "sha256", path: path, errno: .noMemory) }
        let block = 4096
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: block, alignment: 1)
        defer { buffer.deallocate() }
        for offset in Set([0, max(0, info.size - Int64(block))]).sorted() {
            let count = try attempt("read", path) { () throws(Errno) in try POSIX.read(fd, into: buffer, at: offset) }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        let hex = digest.hexDigest()
        return "\(info.device):\(info.inode):\(info.size):\(info.modified):\(info.changed):\(hex)"
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
            guard let descriptor = try? POSIX.open(path, .readOnly) else { return nil }
            self.descriptor = descriptor
        }

        deinit { POSIX.close(descriptor) }

        /// The process id of another process that holds a POSIX lock conflicting with an
        /// exclusive lock on `count` bytes at `offset`, or `nil`. Locks of this process are
        /// never reported.
        ///
        /// SQLite holds a shared lock on byte 128 of a WAL database's `-shm` (its "DMS" byte)
        /// for as long as a connection has the database open, so this tells whether another
        /// program has a WAL database open.
        func otherProcessLocking(offset: Int, count: Int = 1) -> Int32? {
            POSIX.otherProcessLocking(descriptor, offset: offset, count: count)
        }
    }
}
