import Foundation

// MARK: - Reading at an offset

extension FileSystem {
    /// Up to `count` bytes of the file at `offset` (`open`, `pread`); fewer at its end.
    package static func bytes(of path: String, count: Int, at offset: Int64) throws(Failure) -> [UInt8] {
        let fd = try attempt("open", path) { () throws(Errno) in try POSIX.open(path, [.readOnly]) }
        defer { POSIX.close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        var failure: Errno?
        let read = buffer.withUnsafeMutableBytes { bytes -> Int in
            do throws(Errno) { return try POSIX.read(fd, into: bytes, at: offset) } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw Failure(operation: "read", path: path, errno: failure) }
        return Array(buffer.prefix(read))
    }
}
