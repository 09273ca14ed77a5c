internal import CSQLCipher
import Foundation

// MARK: - Locks and bytes of the main file, through SQLite's own file handle

/// The sidecar check asks SQLite's VFS directly (the `sqlite3_file` that
/// `SQLITE_FCNTL_FILE_POINTER` returns) instead of opening the database file itself: a
/// second descriptor on the file, once closed, would drop every POSIX lock this process holds
/// on it (SQLite's "howtocorrupt" §2.2), and only the VFS sees the locks other connections of
/// this process hold. Use these only on a connection that has run no statement, so its pager
/// holds no lock of its own.
extension Connection {
    /// SQLite's lock levels (`SQLITE_LOCK_*`).
    package enum FileLock: Int32 {
        case shared = 1
        case reserved = 2
        case exclusive = 4
    }

    /// The main database file as SQLite opened it (`SQLITE_FCNTL_FILE_POINTER`).
    private func mainFile() throws -> (file: UnsafeMutablePointer<sqlite3_file>, methods: sqlite3_io_methods) {
        var file: UnsafeMutablePointer<sqlite3_file>?
        try check(sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file))
        guard let file, let methods = file.pointee.pMethods?.pointee else {
            throw SQLiteError(extendedCode: .cantOpen, message: "the database file is not open")
        }
        return (file, methods)
    }

    /// Takes a lock on the main file (`xLock`): `SQLITE_BUSY` when another connection, in this
    /// process or another, holds a conflicting one.
    package func lockMainFile(_ level: FileLock) throws {
        let (file, methods) = try mainFile()
        guard let lock = methods.xLock else { return }
        try check(lock(file, level.rawValue))
    }

    /// Releases every lock this connection took with ``lockMainFile(_:)`` (`xUnlock` to NONE).
    package func unlockMainFile() {
        guard let (file, methods) = try? mainFile() else { return }
        _ = methods.xUnlock?(file, SQLITE_LOCK_NONE)
    }

    /// `true` when another connection holds a RESERVED or stronger lock (`xCheckReservedLock`):
    /// a writer is in a transaction, so its `-journal` is not hot.
    package func mainFileIsReservedElsewhere() throws -> Bool {
        let (file, methods) = try mainFile()
        guard let checkReserved = methods.xCheckReservedLock else { return false }
        var reserved: Int32 = 0
        try check(checkReserved(file, &reserved))
        return reserved != 0
    }

    /// Flushes the main file to disk (`xSync`, full), through SQLite's own descriptor: a
    /// descriptor of our own, once closed, would drop this process's locks on the file.
    package func syncMainFile() throws {
        let (file, methods) = try mainFile()
        guard let sync = methods.xSync else { return }
        try check(sync(file, SQLITE_SYNC_FULL))
    }

    /// Copies the main file's bytes (`xFileSize`, `xRead`) to a new private file at `destination`.
    package func copyMainFile(to destination: String) throws {
        let (file, methods) = try mainFile()
        guard let fileSize = methods.xFileSize, let read = methods.xRead else { return }
        var size: sqlite3_int64 = 0
        try check(fileSize(file, &size))
        let output = try FileSystem.NewFile(path: destination)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: sqlite3_int64 = 0
        while offset < size {
            try Interruption.checkpoint()
            let count = Int(min(sqlite3_int64(buffer.count), size - offset))
            try buffer.withUnsafeMutableBytes { bytes in
                try check(read(file, bytes.baseAddress, Int32(count), offset))
                try output.append(UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
            }
            offset += sqlite3_int64(count)
        }
    }
}
