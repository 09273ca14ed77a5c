import Foundation

// MARK: - FileSystem

/// The few file operations the flows need to be crash-safe, on top of ``POSIX``: `fsync` of
/// files and folders, `link` (create without overwrite), `rename` (atomic replace) and `unlink`.
/// Each failure says the call, the path and its ``Errno``.
enum FileSystem {
    /// A failed call, with the operation and path for diagnosis.
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let path: String
        let errno: Errno
        var description: String { "\(operation)(\(path)): \(errno)" }
    }

    /// Runs one POSIX call, naming its failure with `operation` and `path`.
    static func attempt<T>(_ operation: String, _ path: String, _ call: () throws(Errno) -> T) throws(Failure) -> T {
        try POSIX.attempt(call) { Failure(operation: operation, path: path, errno: $0) }
    }

    /// Flushes a file or a folder to disk (`fsync`).
    static func sync(_ path: String) throws(Failure) {
        let fd = try attempt("open", path) { () throws(Errno) in try POSIX.open(path, .readOnly) }
        defer { POSIX.close(fd) }
        try attempt("fsync", path) { () throws(Errno) in try POSIX.sync(fd) }
    }

    /// Gives `source` a second name, failing with `EEXIST` rather than replacing a file.
    static func link(_ source: String, to destination: String) throws(Failure) {
        try attempt("link", destination) { () throws(Errno) in try POSIX.link(source, destination) }
    }

    /// Atomically replaces `destination` with `source` (same folder).
    static func rename(_ source: String, to destination: String) throws(Failure) {
        try attempt("rename", destination) { () throws(Errno) in try POSIX.rename(source, destination) }
    }

    /// Cuts the file at `path` to `size` bytes (`truncate`).
    static func truncate(_ path: String, to size: Int64) throws(Failure) {
        try attempt("truncate", path) { () throws(Errno) in try POSIX.truncate(path, to: size) }
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws(Failure) {
        try attempt("unlink", path) { () throws(Errno) in try POSIX.unlinkIfPresent(path) }
    }

    /// Creates an empty file that must not exist yet (`open(O_CREAT | O_EXCL)`), readable and
    /// writable by its owner only.
    static func createEmptyFile(_ path: String) throws(Failure) {
        let fd = try attempt("create", path) { () throws(Errno) in
            try POSIX.open(path, [.writeOnly, .create, .exclusive], mode: 0o600)
        }
        POSIX.close(fd)
    }

    /// Writes `data` to `path`, creating or truncating it (`open`, `write`), owner-only for a new file.
    static func write(_ data: Data, to path: String) throws(Failure) {
        let fd = try attempt("create", path) { () throws(Errno) in
            try POSIX.open(path, [.writeOnly, .create, .truncate], mode: 0o600)
        }
        defer { POSIX.close(fd) }
        var failure: Errno?
        data.withUnsafeBytes { bytes in
            do throws(Errno) { try POSIX.writeAll(fd, bytes) } catch { failure = error }
        }
        if let failure { throw Failure(operation: "write", path: path, errno: failure) }
    }

    /// `true` when the process may write in the folder (`access(W_OK)`).
    static func isWritable(_ path: String) -> Bool { POSIX.isAccessible(path, writing: true) }
}
