import Foundation

// MARK: - Private scratch copies

extension FileSystem {
    /// A directory only this user can enter (`mkdtemp`, mode 0700) *beside* a database, for a
    /// throw-away copy of it (its replayed journal checked on the copy): a plaintext database's
    /// copy never leaves its directory for `$TMPDIR`. Named `.<name>.scm-check-XXXXXX` and held
    /// with an `flock` on the directory while it is used, so that ``removeAbandoned(beside:)``
    /// tells the leftover of a killed process from one in use. ``remove()`` (or the release of
    /// the value) removes it with all it holds.
    package final class ScratchDirectory {
        package let path: String
        private let descriptor: Int32
        private var removed = false

        package init(beside database: String) throws(Failure) {
            let file = DatabaseFile(path: database)
            let template = file.directory + "/" + ScratchDirectory.prefix(for: database) + "XXXXXX"
            path = try attempt("mkdtemp", template) { () throws(Errno) in try POSIX.makeTemporaryDirectory(template: template) }
            let directory = path
            do {
                descriptor = try attempt("open", directory) { () throws(Errno) in try POSIX.open(directory, [.readOnly, .noFollow]) }
            } catch {
                try? FileManager.default.removeItem(atPath: directory)
                throw error
            }
            _ = try? POSIX.lockExclusively(descriptor, wait: false)
        }

        deinit { remove() }

        /// Removes the directory and every file in it (only this process wrote there: it is 0700).
        package func remove() {
            guard !removed else { return }
            removed = true
            try? FileManager.default.removeItem(atPath: path)
            POSIX.close(descriptor)
        }

        /// `.<database's name>.scm-check-`: what every scratch directory of `database` starts with.
        static func prefix(for database: String) -> String {
            "." + (database as NSString).lastPathComponent + ".scm-check-"
        }

        /// Removes the scratch directories of `database` that a killed process left (no process
        /// holds their lock), and only directories of this user; returns how many.
        @discardableResult
        package static func removeAbandoned(beside database: String) -> Int {
            let directory = DatabaseFile(path: database).directory
            let prefix = prefix(for: database)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
            var count = 0
            for name in names where name.hasPrefix(prefix) {
                let path = directory + "/" + name
                guard let status = try? POSIX.status(path, followingLinks: false), status.isDirectory,
                    status.owner == POSIX.effectiveUserID,
                    let fd = try? POSIX.open(path, [.readOnly, .noFollow])
                else { continue }
                defer { POSIX.close(fd) }
                guard (try? POSIX.lockExclusively(fd, wait: false)) == true else { continue }
                try? FileManager.default.removeItem(atPath: path)
                count += 1
            }
            return count
        }
    }

    /// A file created for writing only (``createNew(_:)``: `O_CREAT | O_EXCL | O_NOFOLLOW`, mode
    /// 0600), written in order.
    final class NewFile {
        let path: String
        private let descriptor: Int32

        init(path: String) throws(Failure) {
            descriptor = try createNew(path)
            self.path = path
        }

        deinit { POSIX.close(descriptor) }

        /// Appends every byte.
        func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
            try attempt("write", path) { () throws(Errno) in try POSIX.writeAll(descriptor, bytes) }
        }
    }

    /// Throws (``Failure``, `EINTR`) once an interrupt was requested while the work can be
    /// undone (``Interruption``): a safe point between the pieces of a copy.
    static func interruptionCheckpoint(_ path: String) throws(Failure) {
        guard Interruption.stopsHere() else { return }
        throw Failure(operation: "copy", path: path, errno: .interrupted)
    }

    /// Copies a file that SQLite holds no lock on (a `-wal` or `-journal`) to a new private file
    /// (`open`, `read` in 1 MiB pieces, `write`).
    package static func copyFile(_ source: String, to destination: String) throws(Failure) {
        let input = try attempt("open", source) { () throws(Errno) in try POSIX.open(source, .readOnly) }
        defer { POSIX.close(input) }
        let output = try NewFile(path: destination)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            try interruptionCheckpoint(source)
            let count = try attempt("read", source) { () throws(Errno) in try POSIX.read(input, into: chunk) }
            if count == 0 { return }
            try output.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
    }
}
