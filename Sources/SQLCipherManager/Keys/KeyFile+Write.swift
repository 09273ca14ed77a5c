import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Writing and deleting key files

extension KeyFile {
    /// The lock file that serialises stores and deletes in a key folder.
    static let lockName = ".lock"

    /// Runs `body` holding an exclusive `flock` on `<folder>/.lock` (the kernel drops it if the
    /// process dies, so a `kill -9` never leaves the folder locked).
    static func withFolderLock<T>(_ folder: String, _ body: () throws(KeyStoreError) -> T) throws(KeyStoreError) -> T {
        let path = folder + "/" + lockName
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("open", path, errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("flock", path, errno) }
        }
        return try body()
    }

    /// Writes a new key file durably without ever replacing one: under the folder lock, a
    /// stale temporary file is removed, the 32 bytes go to `<folder>/.<name>.tmp` (0600,
    /// `O_EXCL`), which is `fsync`ed and renamed to `<folder>/<name>`, then the folder is
    /// `fsync`ed. A crash leaves either no key file or the whole one.
    static func write(_ key: DatabaseKey, folder: String, name: String, store: String) throws(KeyStoreError) {
        try ensureFolder(folder)
        try withFolderLock(folder) { () throws(KeyStoreError) in
            let path = folder + "/" + name
            var info = stat()
            if lstat(path, &info) == 0 { throw .alreadyStored(identifier: name, store: store) }
            let temporary = folder + "/." + name + ".tmp"
            guard unlink(temporary) == 0 || errno == ENOENT else { throw failure("unlink", temporary, errno) }
            try writeNewFile(temporary, key: key)
            guard rename(temporary, path) == 0 else {
                let code = errno
                unlink(temporary)
                throw failure("rename", path, code)
            }
            syncFolder(folder)
        }
    }

    /// Creates `path` (0600, never an existing file), writes the key and `fsync`s it; on a
    /// failure the partial file is removed.
    private static func writeNewFile(_ path: String, key: DatabaseKey) throws(KeyStoreError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("open", path, errno) }
        var problem: KeyStoreError?
        if fchmod(fd, 0o600) != 0 { problem = failure("fchmod", path, errno) }
        if problem == nil {
            problem = key.withUnsafeBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let count = systemWrite(fd, bytes.baseAddress! + done, bytes.count - done)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return failure("write", path, errno) }
                    done += count
                }
                return fsync(fd) == 0 ? nil : failure("fsync", path, errno)
            }
        }
        close(fd)
        if let problem {
            unlink(path)
            throw problem
        }
    }

    /// Removes `<folder>/<name>` and any temporary file of it, then `fsync`s the folder.
    static func remove(folder: String, name: String) throws(KeyStoreError) {
        guard try checkFolder(folder) else { return }
        try withFolderLock(folder) { () throws(KeyStoreError) in
            for path in [folder + "/" + name, folder + "/." + name + ".tmp"] {
                guard unlink(path) == 0 || errno == ENOENT else { throw failure("unlink", path, errno) }
            }
            syncFolder(folder)
        }
    }
}

// The C function, named apart from KeyFile's own `write`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
