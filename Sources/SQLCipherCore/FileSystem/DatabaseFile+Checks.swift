import Foundation

// MARK: - Path and header checks

extension DatabaseFile {
    /// Why the path itself cannot name a database, whatever is there: empty, too long for the
    /// file system or for SQLite, through a file as if it were a directory, or a loop of symbolic
    /// links (`stat`'s `errno`). `nil` when the path is usable.
    package var pathProblem: String? {
        guard !path.isEmpty else { return "the path is empty" }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        do throws(Errno) {
            _ = try POSIX.status(path)
        } catch {
            switch error {
            case .nameTooLong: return "it is too long for the file system (\(absolute.utf8.count) bytes, or a name over 255)"
            case .notADirectory: return "\(firstFileInPath ?? "a part of it") is a file, not a directory"
            case .tooManySymbolicLinks: return "its symbolic links form a loop"
            default: break
            }
        }
        if absolute.utf8.count > SQLiteVFS.maximumPathLength {
            return "it is too long for SQLite (\(absolute.utf8.count) bytes as an absolute path, at most "
                + "\(SQLiteVFS.maximumPathLength)); move or link the file to a shorter path"
        }
        return nil
    }

    /// The first component of the path that exists and is not a directory.
    private var firstFileInPath: String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/").dropLast() {
            prefix += "/" + component
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: prefix, isDirectory: &isDirectory), !isDirectory.boolValue {
                return prefix.hasPrefix("./") ? String(prefix.dropFirst(2)) : prefix
            }
        }
        return nil
    }

    /// For a file that starts with `"SQLite format 3\0"`: why the rest of its 100-byte header
    /// is not SQLite's (too short, a page size that is not a power of two from 512 to 65536,
    /// payload fractions other than 64/32/32, unknown format versions, or smaller than a page),
    /// so it is not a database at all. `nil` for a plausible plaintext database.
    package var plaintextHeaderProblem: String? {
        guard let header = header(count: 100) else { return nil }
        guard header.count == 100 else {
            return "it starts with SQLite's header text but is only \(header.count) bytes, shorter than a 100-byte SQLite header"
        }
        let field = Self.headerField(header, at: 16, count: 2)
        let pageSize = Self.pageSize(inHeader: header)
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            return "it starts with SQLite's header text, but its page size field (\(field)) is not a power of two from 512 to 65536"
        }
        guard header[21] == 64, header[22] == 32, header[23] == 32, [1, 2].contains(header[18]), [1, 2].contains(header[19])
        else {
            return "it starts with SQLite's header text, but the rest of the header is not SQLite's"
        }
        if let size, size < pageSize {
            return "it starts with SQLite's header, but is only \(size) bytes, less than its first page (\(pageSize) bytes)"
        }
        return nil
    }

    /// The big-endian number of `count` bytes at `offset` of SQLite's 100-byte header.
    package static func headerField(_ header: [UInt8], at offset: Int, count: Int) -> Int {
        header[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The page size a header announces (offset 16; the value 1 means 65536).
    package static func pageSize(inHeader header: [UInt8]) -> Int {
        let field = headerField(header, at: 16, count: 2)
        return field == 1 ? 65536 : field
    }
}
