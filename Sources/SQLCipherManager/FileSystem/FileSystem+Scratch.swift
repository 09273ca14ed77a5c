import Foundation

// MARK: - Private scratch copies

extension FileSystem {
    /// A new folder only this user can enter (`mkdtemp`, mode 0700) in the system's temporary
    /// folder, for throw-away copies of a database.
    static func makeScratchDirectory() throws(Failure) -> String {
        try attempt("mkdtemp", NSTemporaryDirectory()) { () throws(Errno) in
            try POSIX.makeTemporaryFolder(template: NSTemporaryDirectory() + "/scm-check-XXXXXX")
        }
    }

    /// A file created for writing only (`O_CREAT | O_EXCL`, mode 0600), written in order.
    final class NewFile {
        let path: String
        private let descriptor: Int32

        init(path: String) throws(Failure) {
            descriptor = try attempt("open", path) { () throws(Errno) in
                try POSIX.open(path, [.writeOnly, .create, .exclusive], mode: 0o600)
            }
            self.path = path
        }

        deinit { POSIX.close(descriptor) }

        /// Appends every byte.
        func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
            try attempt("write", path) { () throws(Errno) in try POSIX.writeAll(descriptor, bytes) }
        }
    }

    /// Copies a file that SQLite holds no lock on (a `-wal` or `-journal`) to a new private file
    /// (`open`, `read` in 1 MiB pieces, `write`).
    static func copyFile(_ source: String, to destination: String) throws(Failure) {
        let input = try attempt("open", source) { () throws(Errno) in try POSIX.open(source, .readOnly) }
        defer { POSIX.close(input) }
        let output = try NewFile(path: destination)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = try attempt("read", source) { () throws(Errno) in try POSIX.read(input, into: chunk) }
            if count == 0 { return }
            try output.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
    }
}
