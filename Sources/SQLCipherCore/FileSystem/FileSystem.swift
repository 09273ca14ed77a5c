import Foundation

// MARK: - FileSystem

/// The few file operations the flows need to be crash-safe, on top of ``POSIX``: `fsync` of
/// files and directories, `link` (create without overwrite), `rename` (atomic replace) and `unlink`.
/// Each failure says the call, the path and its ``Errno``.
package enum FileSystem {
    /// A failed call, with the operation and path for diagnosis.
    package struct Failure: Error, CustomStringConvertible {
        let operation: String
        package let path: String
        package let errno: Errno
        /// Why a file found at `path` was refused and left alone (a symbolic link, a file of
        /// another user, a file too large to be ours); `nil` for a failed call.
        package var refusal: String? = nil
        package var description: String { "\(operation)(\(path)): " + (refusal ?? self.errno.description) }
    }

    /// Runs one POSIX call, naming its failure with `operation` and `path`.
    package static func attempt<T>(_ operation: String, _ path: String, _ call: () throws(Errno) -> T) throws(Failure) -> T {
        try POSIX.attempt(call) { Failure(operation: operation, path: path, errno: $0) }
    }

    /// Flushes a file or a directory to disk (`fsync`).
    package static func sync(_ path: String) throws(Failure) {
        let fd = try attempt("open", path) { () throws(Errno) in try POSIX.open(path, .readOnly) }
        defer { POSIX.close(fd) }
        try attempt("fsync", path) { () throws(Errno) in try POSIX.sync(fd) }
    }

    /// Gives `source` a second name, failing with `EEXIST` rather than replacing a file.
    package static func link(_ source: String, to destination: String) throws(Failure) {
        try attempt("link", destination) { () throws(Errno) in try POSIX.link(source, destination) }
    }

    /// Atomically replaces `destination` with `source` (same directory).
    package static func rename(_ source: String, to destination: String) throws(Failure) {
        try attempt("rename", destination) { () throws(Errno) in try POSIX.rename(source, destination) }
    }

    /// Removes a file; a missing file is not an error.
    package static func remove(_ path: String) throws(Failure) {
        try attempt("unlink", path) { () throws(Errno) in try POSIX.unlinkIfPresent(path) }
    }

    /// Creates an empty file that must not exist yet (``createNew(_:)``), readable and writable
    /// by its owner only.
    package static func createEmptyFile(_ path: String) throws(Failure) {
        POSIX.close(try createNew(path))
    }

    /// `true` when the process may write in the directory (`access(W_OK)`).
    package static func isWritable(_ path: String) -> Bool { POSIX.isAccessible(path, writing: true) }
}
