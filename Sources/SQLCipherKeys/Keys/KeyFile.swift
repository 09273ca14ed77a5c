import Foundation
import SQLCipherCore

// MARK: - KeyFile

/// The POSIX side of key files: a private directory (0700), checked opens that refuse another
/// owner or group/other permission bits before reading a byte, and durable writes
/// (temporary file, `fsync`, `rename`, `fsync` of the directory) under an `flock`.
enum KeyFile {
    /// The accepted contents: 32 raw bytes, or 64 hexadecimal digits with an optional line end.
    static let acceptedSizes: Set<Int> = [32, 64, 65, 66]

    // MARK: Checks

    /// Checks a directory that holds keys: `false` when it does not exist.
    static func checkDirectory(_ path: String) throws(KeyStoreError) -> Bool {
        let found: FileStatus?
        do throws(Errno) { found = try FileSystem.statusIfPresent(path) } catch { throw KeyStoreError("lstat", path, error) }
        guard let info = found else { return false }
        guard info.isDirectory else { throw .notARegularFile(path: path) }
        try checkOwnerAndMode(info, path: path)
        return true
    }

    /// Refuses what another user owns or what group/other may access.
    static func checkOwnerAndMode(_ info: FileStatus, path: String) throws(KeyStoreError) {
        guard info.owner == POSIX.effectiveUserID else {
            throw .wrongOwner(path: path, owner: info.owner, expected: POSIX.effectiveUserID)
        }
        guard info.permissions & 0o077 == 0 else { throw .insecurePermissions(path: path, mode: info.permissions) }
    }

    /// Creates the directory with mode 0700 (its parent must exist), or checks the one there.
    static func ensureDirectory(_ path: String) throws(KeyStoreError) {
        if try checkDirectory(path) { return }
        do throws(Errno) {
            try POSIX.makeDirectory(path, mode: 0o700)
        } catch {
            guard error == .fileExists else { throw KeyStoreError("mkdir", path, error) }
        }
        guard try checkDirectory(path) else { throw KeyStoreError("mkdir", path, .noSuchFile) }
        syncDirectory((path as NSString).deletingLastPathComponent)
    }

    // MARK: Reading

    /// The key in the file at `path`, `nil` when there is no file. Owner, mode, type and size
    /// are checked on the open descriptor before anything is read.
    package static func read(_ path: String) throws(KeyStoreError) -> DatabaseKey? {
        let fd: Int32
        do throws(Errno) {
            fd = try POSIX.open(path, [.readOnly, .noFollow, .nonBlocking])
        } catch {
            if error == .noSuchFile { return nil }
            if error == .tooManySymbolicLinks { throw .notARegularFile(path: path) }
            throw KeyStoreError("open", path, error)
        }
        defer { POSIX.close(fd) }
        let info = try attempt("fstat", path) { () throws(Errno) in try POSIX.status(fd) }
        guard info.isRegularFile else { throw .notARegularFile(path: path) }
        try checkOwnerAndMode(info, path: path)
        let size = Int(info.size)
        guard acceptedSizes.contains(size) else {
            throw .malformedKey(location: path, reason: "it has \(size) bytes; a key file holds 32 raw bytes or 64 hexadecimal digits")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer {
            SecretBytes.wipe(buffer)
            buffer.deallocate()
        }
        var done = 0
        while done < size {
            let count = try attempt("read", path) { () throws(Errno) in
                try POSIX.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            }
            guard count > 0 else { throw KeyStoreError("read", path, .ioError) }
            done += count
        }
        return try decode(UnsafeRawBufferPointer(buffer), location: path)
    }

    /// 32 raw bytes, or 64 hexadecimal digits followed by nothing, `\n` or `\r\n`.
    static func decode(_ bytes: UnsafeRawBufferPointer, location: String) throws(KeyStoreError) -> DatabaseKey {
        if bytes.count == DatabaseKey.byteCount { return DatabaseKey(secret: SecretBytes(bytes)) }
        let ending = bytes.count == 65 ? [UInt8(ascii: "\n")] : bytes.count == 66 ? [13, 10] : []
        guard bytes.count >= 64, Array(bytes[64...]) == ending else {
            throw .malformedKey(location: location, reason: "after 64 characters only a line end may follow")
        }
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: DatabaseKey.byteCount, alignment: 1)
        defer {
            SecretBytes.wipe(raw)
            raw.deallocate()
        }
        for index in 0..<DatabaseKey.byteCount {
            guard let high = hexValue(bytes[2 * index]), let low = hexValue(bytes[2 * index + 1]) else {
                throw .malformedKey(location: location, reason: "it is neither 32 raw bytes nor 64 hexadecimal digits")
            }
            raw[index] = high << 4 | low
        }
        return DatabaseKey(secret: SecretBytes(UnsafeRawBufferPointer(raw)))
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Calls

    /// Runs one POSIX call, its failure as the ``KeyStoreError`` for `operation` on `path`.
    package static func attempt<T>(_ operation: String, _ path: String, _ call: () throws(Errno) -> T) throws(KeyStoreError) -> T {
        try POSIX.attempt(call) { KeyStoreError(operation, path, $0) }
    }

    // MARK: Directories

    /// Flushes a directory's entries (`fsync`); best effort where the file system refuses.
    static func syncDirectory(_ path: String) { try? FileSystem.sync(path) }
}
