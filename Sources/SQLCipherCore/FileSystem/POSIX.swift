#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - POSIX

/// Every C library call the library makes on files, descriptors and memory, in one place: each a
/// thin Swift function that returns what the call gives or throws its ``Errno`` (read right
/// after the call, never after a call that does not promise to set it). This is the only file
/// that imports the C library; the rest of the library calls these.
package enum POSIX {
    /// Ways to open a file (`open`'s flags); every descriptor is also `O_CLOEXEC`.
    package struct OpenOptions: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        package static let readOnly = OpenOptions(rawValue: O_RDONLY)
        package static let writeOnly = OpenOptions(rawValue: O_WRONLY)
        package static let readWrite = OpenOptions(rawValue: O_RDWR)
        package static let create = OpenOptions(rawValue: O_CREAT)
        package static let exclusive = OpenOptions(rawValue: O_EXCL)
        static let truncate = OpenOptions(rawValue: O_TRUNC)
        package static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        package static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        #if canImport(Darwin)
            /// `O_EVTONLY`: for a dispatch source's events only.
            static let eventsOnly = OpenOptions(rawValue: O_EVTONLY)
        #endif
    }

    /// `open(path, options | O_CLOEXEC, mode)`.
    package static func open(_ path: String, _ options: OpenOptions, mode: UInt32 = 0o600) throws(Errno) -> Int32 {
        let fd = systemOpen(path, options.rawValue | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw Errno.current }
        return fd
    }

    /// `close`.
    package static func close(_ fd: Int32) { _ = systemClose(fd) }

    /// Runs one call, its ``Errno`` turned into the caller's own error by `failure`.
    package static func attempt<T, E: Error>(_ call: () throws(Errno) -> T, else failure: (Errno) -> E) throws(E) -> T {
        do {
            return try call()
        } catch {
            throw failure(error)
        }
    }

    /// `read`, repeated after `EINTR`; 0 at the end of the file.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupted { systemRead(fd, buffer.baseAddress, buffer.count) }
    }

    /// `pread` at `offset`, repeated after `EINTR`.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        try retryingInterrupted { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Repeats a call that returns a count or -1 while it fails with `EINTR`.
    private static func retryingInterrupted(_ call: () -> Int) throws(Errno) -> Int {
        while true {
            let count = call()
            if count >= 0 { return count }
            let error = Errno.current
            guard error == .interrupted else { throw error }
        }
    }

    /// Writes every byte (`write`, repeated after a short write or `EINTR`; a write of nothing is `EIO`).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, Errno.current == .interrupted { continue }
            guard written > 0 else { throw written < 0 ? Errno.current : .ioError }
            offset += written
        }
    }

    /// `fsync`.
    package static func sync(_ fd: Int32) throws(Errno) {
        guard fsync(fd) == 0 else { throw Errno.current }
    }

    /// `fchmod`.
    package static func setMode(_ fd: Int32, _ mode: UInt32) throws(Errno) {
        guard fchmod(fd, mode_t(mode)) == 0 else { throw Errno.current }
    }

    /// An exclusive `flock`: waits for it (repeating after `EINTR`), or with `wait` false returns
    /// `false` at once when another descriptor holds it.
    package static func lockExclusively(_ fd: Int32, wait: Bool) throws(Errno) -> Bool {
        while flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let error = Errno.current
            if error == .wouldBlock, !wait { return false }
            guard error == .interrupted else { throw error }
        }
        return true
    }

    /// Lets go of an `flock`.
    package static func unlock(_ fd: Int32) { _ = flock(fd, LOCK_UN) }

    /// The process id of another process whose POSIX lock conflicts with an exclusive lock on
    /// `count` bytes at `offset` (`fcntl(F_GETLK)`), or `nil`.
    package static func otherProcessLocking(_ fd: Int32, offset: Int, count: Int) -> Int32? {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(offset)
        lock.l_len = off_t(count)
        guard fcntl(fd, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
        return Int32(lock.l_pid)
    }
}

// MARK: - Paths

extension POSIX {
    /// `stat` (following symbolic links) or, with `followingLinks` false, `lstat`.
    package static func status(_ path: String, followingLinks: Bool = true) throws(Errno) -> FileStatus {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// `fstat`.
    package static func status(_ fd: Int32) throws(Errno) -> FileStatus {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// This process's id (`getpid`).
    package static var processID: Int32 { getpid() }

    /// `access`: may this process read (`R_OK`) or write (`W_OK`) the path?
    static func isAccessible(_ path: String, writing: Bool) -> Bool { access(path, writing ? W_OK : R_OK) == 0 }

    /// `true` when the file or directory has the immutable flag (`chattr +i`: the inode flag
    /// `FS_IMMUTABLE_FL` read with `ioctl(FS_IOC_GETFLAGS)` on Linux; `UF_IMMUTABLE` or
    /// `SF_IMMUTABLE` in `st_flags` on Apple systems), `false` when it has not or cannot be read.
    static func isImmutable(_ path: String) -> Bool {
        #if canImport(Glibc)
            let fd = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0)
            guard fd >= 0 else { return false }
            defer { _ = systemClose(fd) }
            var flags: Int32 = 0
            // FS_IOC_GETFLAGS = _IOR('f', 1, long); the kernel reads and writes an int.
            let getFlags: UInt = 0x8008_6601
            guard ioctl(fd, getFlags, &flags) == 0 else { return false }
            return flags & 0x10 != 0  // FS_IMMUTABLE_FL
        #else
            var info = stat()
            guard lstat(path, &info) == 0 else { return false }
            return info.st_flags & UInt32(UF_IMMUTABLE | SF_IMMUTABLE) != 0
        #endif
    }

    /// `true` when the file system holding `path` is mounted read-only (`statvfs`, `ST_RDONLY`).
    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// `link`, which fails with `EEXIST` rather than replace a file.
    package static func link(_ source: String, _ destination: String) throws(Errno) {
        guard systemLink(source, destination) == 0 else { throw Errno.current }
    }

    /// `rename`, atomic within one directory.
    package static func rename(_ source: String, _ destination: String) throws(Errno) {
        guard systemRename(source, destination) == 0 else { throw Errno.current }
    }

    /// `unlink`.
    package static func unlink(_ path: String) throws(Errno) {
        guard systemUnlink(path) == 0 else { throw Errno.current }
    }

    /// `unlink`, where a missing file (`ENOENT`) is not an error.
    package static func unlinkIfPresent(_ path: String) throws(Errno) {
        guard systemUnlink(path) == 0 else {
            let error = Errno.current
            guard error == .noSuchFile else { throw error }
            return
        }
    }

    /// `mkdir`.
    package static func makeDirectory(_ path: String, mode: UInt32) throws(Errno) {
        guard mkdir(path, mode_t(mode)) == 0 else { throw Errno.current }
    }

    /// `chmod`.
    package static func setMode(_ path: String, _ mode: UInt32) throws(Errno) {
        guard chmod(path, mode_t(mode)) == 0 else { throw Errno.current }
    }

    /// `chown`.
    static func setOwner(_ path: String, user: UInt32, group: UInt32) throws(Errno) {
        guard chown(path, uid_t(user), gid_t(group)) == 0 else { throw Errno.current }
    }

    /// `geteuid`.
    package static var effectiveUserID: UInt32 { UInt32(geteuid()) }

    /// `realpath`: the path with every symbolic link resolved, `nil` when it cannot be.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `mkdtemp`: a new directory (mode 0700) from a template ending in `XXXXXX`.
    static func makeTemporaryDirectory(template: String) throws(Errno) -> String {
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { $0.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else { throw Errno.current }
        return String(cString: made)
    }

    /// `statvfs`: the bytes an unprivileged process may still write there (`f_bavail × f_frsize`).
    static func availableBytes(in path: String) throws(Errno) -> Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw Errno.current }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}

// MARK: - Memory

extension POSIX {
    /// Fills the buffer from the kernel's random source (`getentropy`, at most 256 bytes a call).
    package static func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            let count = min(256, buffer.count - offset)
            guard getentropy(buffer.baseAddress! + offset, count) == 0 else { throw Errno.current }
            offset += count
        }
    }

    /// Zeroes memory with a call the optimiser may not remove as a dead store before `free`
    /// (`explicit_bzero` in glibc, `memset_s` on Apple systems).
    static func zero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Darwin)
            _ = memset_s(base, buffer.count, 0, buffer.count)
        #else
            explicit_bzero(base, buffer.count)
        #endif
    }

    // MARK: - Waiting for file changes (FileWatch.swift)

    /// A pipe whose ends are close-on-exec and non-blocking: how one thread wakes another
    /// that waits in ``waitReadable(_:timeout:)``.
    static func makePipe() throws(Errno) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Errno.current }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }

    /// Writes one byte, if there is room (a wake-up; a full pipe already wakes).
    static func writeByte(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = systemWrite(fd, &byte, 1)
    }

    /// `poll` for input on `fds`, at most `timeout` seconds: which of them are readable (none
    /// after the timeout or an `EINTR`).
    static func waitReadable(_ fds: [Int32], timeout: Double) -> [Bool] {
        var entries = fds.map { descriptor in pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0) }
        let count = poll(&entries, nfds_t(entries.count), Int32(timeout * 1000))
        guard count > 0 else { return fds.map { _ in false } }
        return entries.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
    }

    #if os(Linux)
        /// `inotify_init1`, non-blocking and close-on-exec.
        static func inotifyInit() throws(Errno) -> Int32 {
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { throw Errno.current }
            return fd
        }

        /// `inotify_add_watch` on a directory for what a commit does to a file in it: written,
        /// created, renamed in, closed after writing, removed.
        static func inotifyWatchDirectory(_ fd: Int32, _ path: String) throws(Errno) {
            let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE)
            guard inotify_add_watch(fd, path, mask) >= 0 else { throw Errno.current }
        }
    #endif

    /// `strerror`: the C library's message for an `errno` value.
    static func message(for code: Int32) -> String { String(cString: strerror(code)) }

    /// The calling thread's `errno`.
    static var errorNumber: Int32 { errno }
}

// The C functions whose names POSIX's own functions take.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func systemLink(_ source: String, _ destination: String) -> Int32 { link(source, destination) }
private func systemRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
private func systemUnlink(_ path: String) -> Int32 { unlink(path) }

// MARK: - The C values

extension Errno {
    package static let noSuchFile = Errno(code: ENOENT)
    package static let fileExists = Errno(code: EEXIST)
    package static let permissionDenied = Errno(code: EACCES)
    package static let notPermitted = Errno(code: EPERM)
    package static let readOnlyFileSystem = Errno(code: EROFS)
    package static let noSpace = Errno(code: ENOSPC)
    package static let quotaExceeded = Errno(code: EDQUOT)
    package static let fileTooLarge = Errno(code: EFBIG)
    package static let nameTooLong = Errno(code: ENAMETOOLONG)
    package static let notADirectory = Errno(code: ENOTDIR)
    package static let tooManySymbolicLinks = Errno(code: ELOOP)
    static let interrupted = Errno(code: EINTR)
    static let wouldBlock = Errno(code: EWOULDBLOCK)
    package static let ioError = Errno(code: EIO)
    static let noMemory = Errno(code: ENOMEM)
}

extension FileStatus {
    package init(_ info: stat) {
        #if canImport(Darwin)
            let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        self.init(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            permissions: UInt32(info.st_mode & 0o7777), owner: UInt32(info.st_uid), group: UInt32(info.st_gid),
            isRegularFile: info.st_mode & S_IFMT == S_IFREG, isDirectory: info.st_mode & S_IFMT == S_IFDIR,
            isSymbolicLink: info.st_mode & S_IFMT == S_IFLNK,
            modified: Time(seconds: Int64(modified.tv_sec), nanoseconds: Int64(modified.tv_nsec)),
            changed: Time(seconds: Int64(changed.tv_sec), nanoseconds: Int64(changed.tv_nsec)))
    }
}
