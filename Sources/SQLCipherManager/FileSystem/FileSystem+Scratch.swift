import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Private scratch copies

extension FileSystem {
    /// A new folder only this user can enter (`mkdtemp`, mode 0700) in the system's temporary
    /// folder, for throw-away copies of a database.
    static func makeScratchDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/scm-check-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { $0.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else { throw Failure(operation: "mkdtemp", path: NSTemporaryDirectory(), code: errno) }
        return String(cString: made)
    }

    /// A file created for writing only (`O_CREAT | O_EXCL`, mode 0600), written in order.
    final class NewFile {
        let path: String
        private let descriptor: Int32

        init(path: String) throws {
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
            self.path = path
        }

        deinit { close(descriptor) }

        /// Appends every byte.
        func append(_ bytes: UnsafeRawBufferPointer) throws { try writeAll(descriptor, bytes, path: path) }
    }

    /// Copies a file that SQLite holds no lock on (a `-wal` or `-journal`) to a new private file.
    static func copyFile(_ source: String, to destination: String) throws {
        guard let input = FileHandle(forReadingAtPath: source) else { throw Failure(operation: "open", path: source, code: errno) }
        defer { try? input.close() }
        let output = try NewFile(path: destination)
        while true {
            let chunk: Data
            do { chunk = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                throw Failure(operation: "read", path: source, code: EIO)
            }
            if chunk.isEmpty { return }
            try chunk.withUnsafeBytes { try output.append($0) }
        }
    }
}
