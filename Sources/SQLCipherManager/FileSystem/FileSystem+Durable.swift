import Foundation

// MARK: - Durable replace

extension FileSystem {
    /// Replaces the file at `path` with `data` so that a crash leaves either the old content or
    /// the new, never a mix: writes `<path>.tmp`, flushes it (`fsync`), `rename`s it over `path`
    /// and flushes the folder. A new file is readable and writable by its owner only.
    static func replaceDurably(_ path: String, with data: Data) throws(Failure) {
        let staging = path + ".tmp"
        try write(data, to: staging)
        try sync(staging)
        try rename(staging, to: path)
        try sync(DatabaseFile(path: path).directory)
    }
}

// MARK: - Flush beside other work

extension FileSystem {
    /// A flush (`fsync`) of one file that runs on another thread, so that the disk writes the
    /// file while the caller goes on (the export engine verifies its copy meanwhile). The file
    /// is opened at once, on the caller's thread, so the flush is of the very file named now.
    /// ``wait()`` returns when the flush has ended and throws its failure: call it before
    /// relying on the file being on disk.
    final class BackgroundSync: @unchecked Sendable {
        // @unchecked: `failure` is read and written only under `lock` (written once, on the
        // flush's thread, before `done` is left; read after `done.wait()`).
        private var failure: Failure?
        private let lock = NSLock()
        private let done = DispatchGroup()

        /// Opens `path` (`open(O_RDONLY)`, which throws here) and starts its `fsync` on a global queue.
        init(_ path: String) throws(Failure) {
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
        func wait() throws(Failure) {
            done.wait()
            if let failure = lock.withLock({ failure }) { throw failure }
        }
    }
}
