import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - FileSystem

/// The few POSIX file operations the flows need to be crash-safe: `fsync` of files and
/// folders, `link` (create without overwrite), `rename` (atomic replace) and `unlink`.
enum FileSystem {
    /// An `errno` from a failed call, with the operation and path for diagnosis.
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let path: String
        let code: Int32
        var description: String { "\(operation)(\(path)): \(String(cString: strerror(code)))" }
    }

    /// Flushes a file or a folder to disk (`fsync`).
    static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Failure(operation: "fsync", path: path, code: errno) }
    }

    /// Gives `source` a second name, failing with `EEXIST` rather than replacing a file.
    static func link(_ source: String, to destination: String) throws {
        guard systemLink(source, destination) == 0 else {
            throw Failure(operation: "link", path: destination, code: errno)
        }
    }

    /// Atomically replaces `destination` with `source` (same folder).
    static func rename(_ source: String, to destination: String) throws {
        guard systemRename(source, destination) == 0 else {
            throw Failure(operation: "rename", path: destination, code: errno)
        }
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw Failure(operation: "unlink", path: path, code: errno)
        }
    }

    /// Creates an empty file that must not exist yet (`open(O_CREAT | O_EXCL)`), readable and
    /// writable by its owner only.
    static func createEmptyFile(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(operation: "create", path: path, code: errno) }
        close(fd)
    }

    /// Writes `data` to `path`, creating or truncating it (`open`, `write`), owner-only for a new file.
    static func write(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(operation: "create", path: path, code: errno) }
        defer { close(fd) }
        try data.withUnsafeBytes { try writeAll(fd, $0, path: path) }
    }

    /// Writes every byte to `fd` (`write`, repeated after a short write or `EINTR`).
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Failure(operation: "write", path: path, code: written < 0 ? errno : EIO) }
            offset += written
        }
    }

    /// `true` when the process may write in the folder (`access(W_OK)`).
    static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }
}

// The C functions, named apart from FileSystem's own methods.
private func systemLink(_ source: String, _ destination: String) -> Int32 { link(source, destination) }
private func systemRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
