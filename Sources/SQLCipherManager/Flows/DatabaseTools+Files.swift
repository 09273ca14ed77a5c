import Foundation
import SQLCipherCore

// MARK: - Small files beside a database

extension DatabaseTools {
    /// Replaces the small file at `url` (a record an app or tool keeps beside its database) the
    /// way the library writes its own journal and slot files, so that a crash or a power loss
    /// leaves the old content or the new, never a mix and never a file without its content:
    /// `<file>.tmp` in the same directory (a leftover of a kill is removed first) is created
    /// owner-only with `O_CREAT | O_EXCL | O_NOFOLLOW`, written, flushed (`fsync`), renamed over
    /// the file, and the directory is flushed. No Foundation atomic write is involved.
    ///
    /// - Throws: ``DatabaseManagerError/untrustedFile(path:reason:)`` when a symbolic link or
    ///   another user's file is at the file's name or `<file>.tmp` (it is left alone),
    ///   ``DatabaseManagerError/permissionDenied(path:underlying:)``,
    ///   ``DatabaseManagerError/diskFull(path:underlying:)`` or another file-system error; the
    ///   file is then as it was.
    public static func writeFileDurably(_ data: Data, to url: URL) throws {
        do {
            try FileSystem.replaceDurably(url.path, with: data)
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: url.path)
        }
    }

    /// The content of the small file at `url` (one ``writeFileDurably(_:to:)`` wrote), `nil`
    /// when there is none. Its size is checked with `fstat` before any byte is read, and the
    /// file is opened without following a link or blocking on a FIFO.
    ///
    /// - Throws: ``DatabaseManagerError/untrustedFile(path:reason:)`` when the file is over
    ///   `limit` bytes, a symbolic link or not a regular file (it is left alone), or another
    ///   file-system error.
    public static func readSmallFile(at url: URL, limit: Int) throws -> Data? {
        do {
            return try FileSystem.readCapped(url.path, limit: limit)
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: url.path)
        }
    }

    /// Removes a leftover `<file>.tmp` of a killed ``writeFileDurably(_:to:)`` of `url`, never
    /// following a link; a symbolic link or another user's file there is refused and left alone.
    ///
    /// - Throws: ``DatabaseManagerError/untrustedFile(path:reason:)`` or a file-system error.
    public static func removeLeftoverTemporary(of url: URL) throws {
        do {
            try FileSystem.removeLeftover(FileSystem.stagingPath(for: url.path))
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: url.path)
        }
    }

    /// Removes the file at `url` and a leftover `<file>.tmp` of ``writeFileDurably(_:to:)``,
    /// then flushes the directory; a missing file is not an error.
    ///
    /// - Throws: the file-system error that stopped the removal.
    public static func removeFileDurably(at url: URL) throws {
        do {
            try FileSystem.removeDurably(url.path)
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: url.path)
        }
    }
}
