internal import CSQLCipher
import Foundation

// MARK: - Reading a file through SQLite's VFS

/// Reads the first bytes of a file through SQLite's default VFS (`xOpen`, `xRead`, `xClose`)
/// instead of a descriptor of our own.
///
/// POSIX drops *every* lock a process holds on a file when *any* descriptor of that file is
/// closed, so reading a database's header with `open`/`close` while a connection of this
/// process has the database open would silently release that connection's locks (SQLite's
/// "How To Corrupt", §2.2): another process could then checkpoint and delete a `-wal` still in
/// use here, or write under a reader. SQLite's unix VFS knows the locks of every connection of
/// the process on the file and keeps a closed descriptor open until they are released, so a
/// read through it is safe whatever else this process has open.
enum SQLiteVFS {
    /// The longest absolute path SQLite's default VFS opens (`sqlite3_vfs.mxPathname`: 512 on
    /// Unix up to SQLite 3.x): a longer one fails with `SQLITE_CANTOPEN`.
    static let maximumPathLength: Int = Int(sqlite3_vfs_find(nil)?.pointee.mxPathname ?? 512)

    /// Up to `count` bytes from the start of `path` (fewer for a shorter file), or `nil` when
    /// it cannot be opened. Call only for a regular file (a FIFO would block).
    static func prefix(of path: String, count: Int) -> [UInt8]? {
        guard let vfs = sqlite3_vfs_find(nil), let open = vfs.pointee.xOpen else { return nil }
        let size = Int(vfs.pointee.szOsFile)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 1))
        let file = storage.bindMemory(to: sqlite3_file.self, capacity: 1)
        // The unix VFS keeps the name's pointer for the file's lifetime.
        guard let name = fullPathname(of: path, in: vfs) else {
            storage.deallocate()
            return nil
        }
        defer {
            free(name)
            storage.deallocate()
        }
        var flags: Int32 = 0
        guard open(vfs, name, file, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &flags) == SQLITE_OK,
            let methods = file.pointee.pMethods?.pointee
        else { return nil }
        defer { _ = methods.xClose?(file) }
        // The size from `stat`: the unix VFS's xFileSize reports a 1-byte file as empty (an old
        // workaround for a file system that could not make empty files).
        guard let fileSize = FileSystem.size(of: path) else { return nil }
        let length = min(count, Int(fileSize))
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: length)
        let rc = bytes.withUnsafeMutableBytes { methods.xRead?(file, $0.baseAddress, Int32(length), 0) ?? SQLITE_IOERR }
        return rc == SQLITE_OK ? bytes : nil
    }

    /// `path` as the VFS names the files its connections open (`xFullPathname`, a `malloc`ed
    /// copy): absolute and, from SQLite 3.31, with symbolic links resolved, since its `xOpen`
    /// then opens with `O_NOFOLLOW` and a link given as such fails with `ELOOP`.
    private static func fullPathname(of path: String, in vfs: UnsafeMutablePointer<sqlite3_vfs>) -> UnsafeMutablePointer<CChar>? {
        guard let full = vfs.pointee.xFullPathname else { return strdup(path) }
        let capacity = Int(vfs.pointee.mxPathname) + 1
        guard let buffer = calloc(capacity, 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
        // SQLITE_OK_SYMLINK (an extended OK) when a link was resolved.
        guard full(vfs, path, Int32(capacity), buffer) & 0xff == SQLITE_OK else {
            free(buffer)
            return nil
        }
        return buffer
    }
}
