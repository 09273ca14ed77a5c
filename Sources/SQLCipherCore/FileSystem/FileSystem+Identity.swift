import Foundation

// MARK: - Identity, real paths, digests, other processes' locks

/// A file's device and inode: what stays the same while a file is written and changes when
/// another file is renamed over its path.
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
}

extension FileSystem {
    /// The identity of the file at `path`, following symbolic links (`stat`); `nil` when there is none.
    package static func identity(of path: String) -> FileIdentity? { status(of: path)?.identity }

    /// What `stat` says about the file at `path`, following symbolic links; `nil` when there is none.
    package static func status(of path: String) -> FileStatus? { try? POSIX.status(path) }

    /// The path with every symbolic link resolved (`realpath`), as SQLite itself resolves it
    /// (since 3.10) before naming its `-journal`, `-wal` and `-shm`: the files beside the real
    /// file are the ones that count. For a path that does not exist yet, its directory is
    /// resolved and the name kept. A path that cannot be resolved is returned as given.
    package static func resolvedPath(_ path: String) -> String {
        if let real = POSIX.realPath(path) { return real }
        let name = (path as NSString).lastPathComponent
        let parent = (path as NSString).deletingLastPathComponent
        guard !name.isEmpty, let directory = POSIX.realPath(parent.isEmpty ? "." : parent) else { return path }
        return (directory as NSString).appendingPathComponent(name)
    }

    /// What proves, later, that a file is still the very one seen now: its device, inode,
    /// size, modification and status-change times (nanoseconds; any write or replacement
    /// changes them), and the SHA-256 (libcrypto's EVP interface) of its first and last 4 KiB.
    /// Costs one `stat` and two small reads, whatever the file's size.
    package static func fingerprint(of path: String) throws(Failure) -> String {
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

    /// `true` when `fingerprint` (``fingerprint(of:)``) was taken of the file now at `path`: the
    /// same device and inode (whatever was written to it or renamed since: a rename or link
    /// changes its status-change time, a write its size and times), or the same size and the
    /// same digest of its first and last 4 KiB (a database's first page holds its random salt).
    package static func fingerprint(_ fingerprint: String, isOf path: String) -> Bool {
        guard let identity = identity(of: path) else { return false }
        if fingerprint.hasPrefix("\(identity.device):\(identity.inode):") { return true }
        guard let current = try? self.fingerprint(of: path) else { return false }
        return contentMarks(fingerprint) == contentMarks(current)
    }

    /// `true` when the files at `a` and `b` have the same size and the same digest of their
    /// first and last 4 KiB (``fingerprint(of:)``): the same content, as far as that tells.
    package static func sameContent(_ a: String, _ b: String) -> Bool {
        guard let first = try? fingerprint(of: a), let second = try? fingerprint(of: b) else { return false }
        return contentMarks(first) == contentMarks(second)
    }

    /// A fingerprint's size and digest (its third and last fields).
    private static func contentMarks(_ fingerprint: String) -> [Substring] {
        let fields = fingerprint.split(separator: ":")
        guard fields.count >= 6, let digest = fields.last else { return [] }
        return [fields[2], digest]
    }

    /// A descriptor kept open on a file to ask who else locks it (`fcntl(F_GETLK)`).
    ///
    /// POSIX drops every lock this process holds on a file when any descriptor of it is
    /// closed, so a probe is never closed: ``keptOpen(path:)`` opens one per path for the
    /// process's lifetime.
    package final class LockProbe {
        private let descriptor: Int32

        /// Opens `path` read-only, or `nil` when there is no such file.
        private init?(path: String) {
            guard let descriptor = try? POSIX.open(path, .readOnly) else { return nil }
            self.descriptor = descriptor
        }

        deinit { POSIX.close(descriptor) }

        /// A probe of `path` that is never closed (one per path, for the process's lifetime), for
        /// use while connections of this process may hold locks on the file.
        package static func keptOpen(path: String) -> LockProbe? {
            kept.lock.withLock {
                if let probe = kept.probes[path] { return probe }
                let probe = LockProbe(path: path)
                kept.probes[path] = probe
                return probe
            }
        }

        private final class Kept: @unchecked Sendable {
            // @unchecked: `probes` is read and written only under `lock`.
            let lock = NSLock()
            var probes: [String: LockProbe] = [:]
        }

        private static let kept = Kept()

        /// The process id of another process that holds a POSIX lock conflicting with an
        /// exclusive lock on `count` bytes at `offset`, or `nil`. Locks of this process are
        /// never reported.
        ///
        /// SQLite holds a shared lock on byte 128 of a WAL database's `-shm` (its "DMS" byte)
        /// for as long as a connection has the database open, so this tells whether another
        /// program has a WAL database open.
        package func otherProcessLocking(offset: Int, count: Int = 1) -> Int32? {
            POSIX.otherProcessLocking(descriptor, offset: offset, count: count)
        }
    }
}
