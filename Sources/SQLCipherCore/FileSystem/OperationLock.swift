import Foundation

// MARK: - OperationLock

/// An exclusive `flock` on `<target>.scm-lock`, held while a rekey, encrypt or decrypt runs on
/// the target and while one is recovered, so that no other process or manager recovers (that
/// is, deletes or installs the copy of) an operation that is still running.
///
/// The kernel drops the lock when its process dies, so a `kill -9` leaves at most an unlocked
/// empty file, which the next recovery removes.
package final class OperationLock {
    package static let suffix = ".scm-lock"

    private let descriptor: Int32
    private let path: String
    private var released = false

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { release() }

    /// Takes the lock, or returns `nil` when another process or manager holds it.
    package static func acquire(for target: String) throws(FileSystem.Failure) -> OperationLock? {
        let path = target + suffix
        while true {
            let descriptor: Int32
            do throws(Errno) {
                descriptor = try POSIX.open(path, [.readWrite, .create, .noFollow], mode: 0o600)
            } catch {
                if error == .tooManySymbolicLinks { try FileSystem.refuseUntrusted(path) }
                throw FileSystem.Failure(operation: "open", path: path, errno: error)
            }
            // A file another user planted there is not a lock of ours: refused, left alone.
            if let opened = try? POSIX.status(descriptor), !opened.isRegularFile || opened.owner != POSIX.effectiveUserID {
                POSIX.close(descriptor)
                try FileSystem.refuseUntrusted(path)
                continue  // it changed since: look again
            }
            let locked: Bool
            do throws(Errno) {
                locked = try POSIX.lockExclusively(descriptor, wait: false)
            } catch {
                POSIX.close(descriptor)
                throw FileSystem.Failure(operation: "flock", path: path, errno: error)
            }
            guard locked else {
                POSIX.close(descriptor)
                return nil
            }
            // The previous holder may have removed the file after we opened it: the lock counts
            // only on the file that is at the path now.
            if let opened = try? POSIX.status(descriptor), opened.identity == FileSystem.identity(of: path) {
                return OperationLock(descriptor: descriptor, path: path)
            }
            POSIX.close(descriptor)
        }
    }

    /// `true` when some process or manager holds the lock now. Tests it without creating,
    /// changing or removing the lock file (a lock taken for the test is let go at once).
    package static func isHeld(for target: String) -> Bool {
        guard let descriptor = try? POSIX.open(target + suffix, [.readOnly, .noFollow]) else { return false }
        defer { POSIX.close(descriptor) }
        guard let locked = try? POSIX.lockExclusively(descriptor, wait: false) else { return false }
        if locked { POSIX.unlock(descriptor) }
        return !locked
    }

    /// Removes the lock file, then releases the lock.
    package func release() {
        guard !released else { return }
        released = true
        try? POSIX.unlink(path)
        POSIX.close(descriptor)
    }
}
