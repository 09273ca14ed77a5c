import Foundation

// MARK: - Durable replace

extension FileSystem {
    /// The name of the temporary file ``replaceDurably(_:with:)`` writes before renaming it over
    /// `path`: `<path>.tmp`, in the same directory, so that one `rename` installs it and the next
    /// writer (or recovery) knows which leftover of a kill to remove.
    package static func stagingPath(for path: String) -> String { path + ".tmp" }

    /// Replaces the file at `path` with `data` so that a crash or a power loss leaves either the
    /// old content or the new, never a mix: removes a leftover `<path>.tmp` of our own
    /// (``removeLeftover(_:)``), creates it anew (`O_CREAT | O_EXCL | O_NOFOLLOW`, owner-only),
    /// writes and flushes it (`fsync`), `rename`s it over `path` and flushes the directory, so the
    /// rename itself is on disk when this returns. The one way the library and cipherdb write a
    /// small file: a symbolic link or another user's file at either name is refused
    /// (``Failure/refusal``) and left as it is.
    package static func replaceDurably(_ path: String, with data: Data) throws(Failure) {
        let staging = stagingPath(for: path)
        try refuseUntrusted(path)
        try removeLeftover(staging)
        try writeNewFile(data, to: staging)
        do {
            try refuseUntrusted(path)
            try rename(staging, to: path)
        } catch {
            try? removeLeftover(staging)
            throw error
        }
        try sync(DatabaseFile(path: path).directory)
    }

    /// Removes the file at `path` (and a leftover `<path>.tmp`) and flushes the directory, so the
    /// removal is on disk when this returns; a missing file is not an error.
    package static func removeDurably(_ path: String) throws(Failure) {
        try removeLeftover(stagingPath(for: path))
        try remove(path)
        try sync(DatabaseFile(path: path).directory)
    }

    /// Removes what a killed write of ours left at `path`, never following a link (`lstat`,
    /// then `unlink`, which removes a name, never what it points to). Nothing there is not an
    /// error; a symbolic link, something other than a file, or a file another user owns was not
    /// left by us: it is refused and left alone.
    ///
    /// With `leavingForeign` (a clean-up on the way to other work, such as an open), such a file
    /// is left without an error: the write that would use the name refuses it then.
    package static func removeLeftover(_ path: String, leavingForeign: Bool = false) throws(Failure) {
        do throws(Failure) {
            guard try refuseUntrusted(path) else { return }
        } catch {
            if leavingForeign, error.refusal != nil { return }
            throw error
        }
        try remove(path)
    }

    /// Throws a refusal when `path` (not followed: `lstat`) is a symbolic link, not a regular
    /// file, or owned by another user; `false` when nothing is there, `true` for a file of ours.
    @discardableResult
    package static func refuseUntrusted(_ path: String) throws(Failure) -> Bool {
        let found: FileStatus?
        do throws(Errno) { found = try statusIfPresent(path) } catch { throw Failure(operation: "lstat", path: path, errno: error) }
        guard let status = found else { return false }
        let refusal: String? =
            if status.isSymbolicLink {
                "it is a symbolic link, which is never written through or replaced"
            } else if !status.isRegularFile {
                "it is not a regular file"
            } else if status.owner != POSIX.effectiveUserID {
                "it belongs to another user (uid \(status.owner)), not to the one running this"
            } else {
                nil
            }
        guard let refusal else { return true }
        throw Failure(operation: "lstat", path: path, errno: .fileExists, refusal: refusal)
    }

    /// What is at `path` itself (`lstat`: a symbolic link is not followed), `nil` when nothing
    /// is there: the one look before the library writes, removes or trusts a name.
    package static func statusIfPresent(_ path: String) throws(Errno) -> FileStatus? {
        do throws(Errno) {
            return try POSIX.status(path, followingLinks: false)
        } catch {
            if error == .noSuchFile { return nil }
            throw error
        }
    }

    /// Refuses to let SQLite open the database at `path` while a symbolic link sits at one of
    /// the names SQLite creates beside it itself (`-journal`, `-wal`, `-shm`, beside the path
    /// and beside the file it resolves to): SQLite would write through the link.
    package static func refuseLinkedSidecars(of path: String) throws(Failure) {
        let resolved = resolvedPath(path)
        for base in resolved == path ? [path] : [path, resolved] {
            for suffix in sidecarSuffixes {
                let name = base + suffix
                let found: FileStatus?
                do throws(Errno) { found = try statusIfPresent(name) } catch { continue }
                guard let status = found, status.isSymbolicLink else { continue }
                throw Failure(
                    operation: "lstat", path: name, errno: .fileExists,
                    refusal: "it is a symbolic link where SQLite writes its own \(suffix) file, which it would write through")
            }
        }
    }

    /// Writes `data` to a new file at `path` (`O_CREAT | O_EXCL | O_NOFOLLOW`: never an existing
    /// file or a symbolic link planted there; owner-only) and flushes it (`fsync`) before
    /// closing. On a failure after the create, the new file is removed again.
    static func writeNewFile(_ data: Data, to path: String) throws(Failure) {
        let fd = try createNew(path)
        var failure: Failure?
        data.withUnsafeBytes { bytes in
            do throws(Errno) { try POSIX.writeAll(fd, bytes) } catch {
                failure = Failure(operation: "write", path: path, errno: error)
            }
        }
        if failure == nil {
            do throws(Errno) { try POSIX.sync(fd) } catch { failure = Failure(operation: "fsync", path: path, errno: error) }
        }
        POSIX.close(fd)
        if let failure {
            try? remove(path)
            throw failure
        }
    }

    /// Creates a new file for writing at `path` and returns its descriptor: `O_CREAT | O_EXCL |
    /// O_NOFOLLOW` (an existing file or a link planted there fails with `EEXIST`), mode 0600
    /// set again with `fchmod` (a umask cannot widen or narrow it).
    static func createNew(_ path: String) throws(Failure) -> Int32 {
        let fd = try attempt("create", path) { () throws(Errno) in
            try POSIX.open(path, [.writeOnly, .create, .exclusive, .noFollow], mode: 0o600)
        }
        do throws(Errno) { try POSIX.setMode(fd, 0o600) } catch {
            POSIX.close(fd)
            try? remove(path)
            throw Failure(operation: "fchmod", path: path, errno: error)
        }
        return fd
    }
}

// MARK: - Flush beside other work

extension FileSystem {
    /// A flush (`fsync`) of one file that runs on another thread, so that the disk writes the
    /// file while the caller goes on (the export engine verifies its copy meanwhile). The file
    /// is opened at once, on the caller's thread, so the flush is of the very file named now.
    /// ``wait()`` returns when the flush has ended and throws its failure: call it before
    /// relying on the file being on disk.
    package final class BackgroundSync: @unchecked Sendable {
        // @unchecked: `failure` is read and written only under `lock` (written once, on the
        // flush's thread, before `done` is left; read after `done.wait()`).
        private var failure: Failure?
        private let lock = NSLock()
        private let done = DispatchGroup()

        /// Opens `path` (`open(O_RDONLY)`, which throws here) and starts its `fsync` on a global queue.
        package init(_ path: String) throws(Failure) {
            let fd = try attempt("open", path) { () throws(Errno) in try POSIX.open(path, .readOnly) }
            DispatchQueue.global(qos: .userInitiated).async(group: done) { [self] in
                defer { POSIX.close(fd) }
                do throws(Failure) {
                    try attempt("fsync", path) { () throws(Errno) in try POSIX.sync(fd) }
                } catch {
                    lock.withLock { failure = error }
                }
            }
        }

        /// Waits for the flush to end; throws its failure (every call does).
        package func wait() throws(Failure) {
            done.wait()
            if let failure = lock.withLock({ failure }) { throw failure }
        }
    }
}

// MARK: - Capped reads

extension FileSystem {
    /// The content of the small file at `path`, `nil` when nothing is there. Opened without
    /// following a link and without blocking (`O_NOFOLLOW | O_NONBLOCK`: a FIFO cannot stall
    /// it), its size taken with `fstat` *before* any read: a symbolic link, something other
    /// than a regular file, or a file over `limit` bytes (a sparse 2 GB one costs nothing to
    /// plant) is refused (``Failure/refusal``) without a byte of it read, and left alone.
    package static func readCapped(_ path: String, limit: Int) throws(Failure) -> Data? {
        let fd: Int32
        do throws(Errno) {
            fd = try POSIX.open(path, [.readOnly, .noFollow, .nonBlocking])
        } catch {
            if error == .noSuchFile { return nil }
            if error == .tooManySymbolicLinks { try refuseUntrusted(path) }
            throw Failure(operation: "open", path: path, errno: error)
        }
        defer { POSIX.close(fd) }
        let status = try attempt("fstat", path) { () throws(Errno) in try POSIX.status(fd) }
        guard status.isRegularFile else {
            throw Failure(operation: "fstat", path: path, errno: .ioError, refusal: "it is not a regular file")
        }
        guard status.size <= Int64(limit) else { throw oversized(path, size: status.size, limit: limit) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limit + 1, alignment: 1)
        defer { buffer.deallocate() }
        var filled = 0
        while filled <= limit {
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
            let count = try attempt("read", path) { () throws(Errno) in try POSIX.read(fd, into: rest) }
            if count == 0 { break }
            filled += count
        }
        // It grew between the fstat and the read.
        guard filled <= limit else { throw oversized(path, size: Int64(filled), limit: limit) }
        return Data(buffer[0..<filled])
    }

    private static func oversized(_ path: String, size: Int64, limit: Int) -> Failure {
        Failure(
            operation: "fstat", path: path, errno: .fileTooLarge,
            refusal: "it is \(size) bytes, larger than any file of this kind the library writes (at most \(limit))")
    }
}
