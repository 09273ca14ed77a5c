import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - OperationLock

/// An exclusive `flock` on `<target>.scm-lock`, held while a rekey, encrypt or decrypt runs on
/// the target and while one is recovered, so that no other process or manager recovers (that
/// is, deletes or installs the copy of) an operation that is still running.
///
/// The kernel drops the lock when its process dies, so a `kill -9` leaves at most an unlocked
/// empty file, which the next recovery removes.
final class OperationLock {
    static let suffix = ".scm-lock"

    private let descriptor: Int32
    private let path: String
    private var released = false

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { release() }

    /// Takes the lock, or returns `nil` when another process or manager holds it.
    static func acquire(for target: String) throws -> OperationLock? {
        let path = target + suffix
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw FileSystem.Failure(operation: "open", path: path, code: errno) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                close(descriptor)
                if code == EWOULDBLOCK { return nil }
                throw FileSystem.Failure(operation: "flock", path: path, code: code)
            }
            // The previous holder may have removed the file after we opened it: the lock counts
            // only on the file that is at the path now.
            var opened = stat()
            var current = stat()
            if fstat(descriptor, &opened) == 0, stat(path, &current) == 0,
               opened.st_ino == current.st_ino, opened.st_dev == current.st_dev {
                return OperationLock(descriptor: descriptor, path: path)
            }
            close(descriptor)
        }
    }

    /// `true` when some process or manager holds the lock now. Tests it without creating,
    /// changing or removing the lock file (a lock taken for the test is let go at once).
    static func isHeld(for target: String) -> Bool {
        let descriptor = open(target + suffix, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(descriptor, LOCK_UN)
        return false
    }

    /// Removes the lock file, then releases the lock.
    func release() {
        guard !released else { return }
        released = true
        unlink(path)
        close(descriptor)
    }
}
