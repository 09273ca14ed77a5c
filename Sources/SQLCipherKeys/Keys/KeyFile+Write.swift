import Foundation
import SQLCipherCore

// MARK: - Writing and deleting key files

extension KeyFile {
    /// The lock file that serialises stores and deletes in a key directory.
    static let lockName = ".lock"

    /// Runs `body` holding an exclusive `flock` on `<directory>/.lock` (the kernel drops it if the
    /// process dies, so a `kill -9` never leaves the directory locked).
    static func withDirectoryLock<T>(_ directory: String, _ body: () throws(KeyStoreError) -> T) throws(KeyStoreError) -> T {
        let path = directory + "/" + lockName
        let fd = try attempt("open", path) { () throws(Errno) in
            try POSIX.open(path, [.readWrite, .create, .noFollow], mode: 0o600)
        }
        defer { POSIX.close(fd) }
        _ = try attempt("flock", path) { () throws(Errno) in try POSIX.lockExclusively(fd, wait: true) }
        return try body()
    }

    /// Writes a new key file durably without ever replacing one: under the directory lock, a
    /// stale temporary file is removed, the 32 bytes go to `<directory>/.<name>.tmp` (0600,
    /// `O_EXCL`), which is `fsync`ed and renamed to `<directory>/<name>`, then the directory is
    /// `fsync`ed. A crash leaves either no key file or the whole one.
    package static func write(_ key: DatabaseKey, directory: String, name: String, store: String) throws(KeyStoreError) {
        try ensureDirectory(directory)
        try withDirectoryLock(directory) { () throws(KeyStoreError) in
            let path = directory + "/" + name
            if (try? FileSystem.statusIfPresent(path)) != nil { throw .alreadyStored(identifier: name, store: store) }
            let temporary = directory + "/." + name + ".tmp"
            try removeStaleTemporary(temporary)
            try writeNewFile(temporary, key: key)
            do throws(Errno) {
                try POSIX.rename(temporary, path)
            } catch {
                try? POSIX.unlink(temporary)
                throw KeyStoreError("rename", path, error)
            }
            syncDirectory(directory)
        }
    }

    /// Removes a temporary file a killed write of ours left; a symbolic link, something else or
    /// another user's file there is refused and left alone.
    private static func removeStaleTemporary(_ path: String) throws(KeyStoreError) {
        let found: FileStatus?
        do throws(Errno) { found = try FileSystem.statusIfPresent(path) } catch { throw KeyStoreError("lstat", path, error) }
        guard let info = found else { return }
        guard info.isRegularFile else { throw .notARegularFile(path: path) }
        guard info.owner == POSIX.effectiveUserID else {
            throw .wrongOwner(path: path, owner: info.owner, expected: POSIX.effectiveUserID)
        }
        try attempt("unlink", path) { () throws(Errno) in try POSIX.unlinkIfPresent(path) }
    }

    /// Creates `path` (0600, never an existing file), writes the key and `fsync`s it; on a
    /// failure the partial file is removed.
    private static func writeNewFile(_ path: String, key: DatabaseKey) throws(KeyStoreError) {
        let fd = try attempt("open", path) { () throws(Errno) in
            try POSIX.open(path, [.writeOnly, .create, .exclusive, .noFollow], mode: 0o600)
        }
        let problem: KeyStoreError? = key.withUnsafeBytes { bytes in
            do throws(Errno) { try POSIX.setMode(fd, 0o600) } catch { return KeyStoreError("fchmod", path, error) }
            do throws(Errno) { try POSIX.writeAll(fd, bytes) } catch { return KeyStoreError("write", path, error) }
            do throws(Errno) { try POSIX.sync(fd) } catch { return KeyStoreError("fsync", path, error) }
            return nil
        }
        POSIX.close(fd)
        if let problem {
            try? POSIX.unlink(path)
            throw problem
        }
    }

    /// Removes `<directory>/<name>` and any temporary file of it, then `fsync`s the directory.
    package static func remove(directory: String, name: String) throws(KeyStoreError) {
        guard try checkDirectory(directory) else { return }
        try withDirectoryLock(directory) { () throws(KeyStoreError) in
            for path in [directory + "/" + name, directory + "/." + name + ".tmp"] {
                try attempt("unlink", path) { () throws(Errno) in try POSIX.unlinkIfPresent(path) }
            }
            syncDirectory(directory)
        }
    }
}
