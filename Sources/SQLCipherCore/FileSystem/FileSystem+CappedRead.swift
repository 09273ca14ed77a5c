import Foundation

// MARK: - Reading a small file, bounded

extension FileSystem {
    /// What ``cappedContents(of:maximumSize:)`` found.
    package enum CappedRead: Equatable {
        /// Nothing at the path.
        case missing
        /// Not a regular file: what it is ("a directory", "a named pipe (FIFO)", "a character device" …).
        case notRegularFile(String)
        /// A regular file larger than the cap (its size by `fstat`); nothing was read.
        case tooLarge(Int64)
        case contents(Data)
    }

    /// A small file's bytes, with the checks made on the open descriptor before any read:
    /// opened with `O_NONBLOCK` (a FIFO never blocks the open), `fstat` for the type (only a
    /// regular file is read: never a pipe, a device such as `/dev/zero`, or a directory) and the
    /// size (over `maximumSize`, nothing is read). Reads at most `maximumSize + 1` bytes, so a
    /// file growing meanwhile is still refused.
    package static func cappedContents(of path: String, maximumSize: Int64) throws(Failure) -> CappedRead {
        let fd: Int32
        do throws(Errno) {
            fd = try POSIX.open(path, [.readOnly, .nonBlocking])
        } catch {
            if error == .noSuchFile { return .missing }
            throw Failure(operation: "open", path: path, errno: error)
        }
        defer { POSIX.close(fd) }
        let status = try attempt("fstat", path) { () throws(Errno) in try POSIX.status(fd) }
        guard status.isRegularFile else { return .notRegularFile(status.isDirectory ? "a directory" : typeName(of: path)) }
        guard status.size <= maximumSize else { return .tooLarge(status.size) }
        let limit = Int(maximumSize) + 1
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limit, alignment: 1)
        defer { buffer.deallocate() }
        var count = 0
        while count < limit {
            let read = try attempt("read", path) { () throws(Errno) in
                try POSIX.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count..<limit]))
            }
            if read == 0 { break }
            count += read
        }
        guard count <= maximumSize else { return .tooLarge(Int64(count)) }
        return .contents(Data(buffer[0..<count]))
    }

    /// The kind of a file that is not a regular file or directory, in words (for messages only).
    private static func typeName(of path: String) -> String {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
        switch type {
        case .typeCharacterSpecial?: return "a character device (such as /dev/zero)"
        case .typeBlockSpecial?: return "a block device"
        case .typeSocket?: return "a socket"
        default: return "a named pipe (FIFO) or another special file"
        }
    }
}
