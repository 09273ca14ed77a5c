import Foundation
import SQLCipherCore

// MARK: - KeySlotStore

/// The key-slot files of one database: `<db>.scm-keys` (the slots) and, while a transition
/// runs (creation, data-key rotation, conversion either way), `<db>.scm-keys.next` (the slots
/// as they will be). Every write is atomic and durable (``FileSystem/replaceDurably(_:with:)``).
package struct KeySlotStore {
    package static let suffix = ".scm-keys"
    static let nextSuffix = ".next"

    /// The real database file (symbolic links resolved, as for SQLite's own sidecars).
    package let database: String

    package init(databasePath: String) {
        database = FileSystem.resolvedPath(databasePath)
    }

    package var path: String { database + Self.suffix }
    package var nextPath: String { path + Self.nextSuffix }

    /// `true` when the database file's salt starts with the key-slot marker.
    package var databaseHasKeySlotSalt: Bool { databaseSalt.map { Array($0.prefix(8)) == KeySlotFile.saltMarker } ?? false }

    /// The database file's 16-byte salt, `nil` when it has none or is not a regular file that
    /// could be a database (a pipe is never opened: that would block).
    var databaseSalt: [UInt8]? {
        let file = DatabaseFile(path: database)
        guard file.kind() == .encryptedOrNotADatabase else { return nil }
        // A plaintext header keeps the salt beside the file (HeaderSaltFile).
        return KeyDerivation.salt(ofFileAt: database)
    }

    package var hasCurrent: Bool { FileSystem.size(of: path) != nil }
    package var hasNext: Bool { FileSystem.size(of: nextPath) != nil }

    // MARK: - Reading

    /// `<db>.scm-keys`, `nil` when it is not there.
    package func readCurrent() throws -> KeySlotFile? { try read(path) }

    /// `<db>.scm-keys.next`, `nil` when it is not there.
    package func readNext() throws -> KeySlotFile? { try read(nextPath) }

    /// A slot file is a few KiB; anything over this is refused before it is read.
    static let maximumFileSize: Int64 = 1 << 20

    /// Reads with the checks on the open descriptor first (``FileSystem/cappedContents(of:maximumSize:)``):
    /// a pipe, a device or a directory is never read and never blocks, and nothing over the cap is read.
    private func read(_ file: String) throws -> KeySlotFile? {
        switch try FileSystem.cappedContents(of: file, maximumSize: Self.maximumFileSize) {
        case .missing: return nil
        case .notRegularFile(let kind): throw KeySlotError.slotFileNotAFile(path: file, kind: kind)
        case .tooLarge(let size):
            throw KeySlotError.slotFileDamaged(path: file, reason: "it has \(size) bytes, more than a key-slot file can hold")
        case .contents(let data): return try KeySlotFile.decode(data, path: file)
        }
    }

    /// `true` when `<db>.scm-keys.next` is a regular file but not a complete key-slot file (it
    /// does not parse, or its checksum or a field is wrong). The library only renames complete
    /// files into place as `.next`, so such a file is debris someone else left: it is ignored,
    /// and removed once `<db>.scm-keys` has proved itself (it opened the database).
    package var nextIsDebris: Bool {
        do {
            _ = try readNext()
            return false
        } catch KeySlotError.Code.slotFileDamaged, KeySlotError.Code.invalidKeyDerivation {
            return true
        } catch {
            return false
        }
    }

    /// Throws ``KeySlotError/slotFileMismatch(path:database:)`` unless the database's salt is the one
    /// this file names.
    package func checkBinding(_ file: KeySlotFile, at slotPath: String) throws {
        guard let salt = databaseSalt, salt == file.databaseSalt else {
            // A plaintext header without its salt file: name that file, not the slot file.
            if HeaderSaltFile.hasPlaintextHeaderForm(database) {
                _ = try HeaderSaltFile.read(for: database)
            }
            throw KeySlotError.slotFileMismatch(path: slotPath, database: database)
        }
    }

    // MARK: - Writing

    package func writeCurrent(_ file: KeySlotFile) throws { try FileSystem.replaceDurably(path, with: file.encoded()) }

    package func writeNext(_ file: KeySlotFile) throws { try FileSystem.replaceDurably(nextPath, with: file.encoded()) }

    /// Makes `.next` the slot file (`rename`, directory flushed).
    package func installNext() throws {
        try FileSystem.rename(nextPath, to: path)
        try FileSystem.sync(DatabaseFile(path: database).directory)
    }

    /// Removes `.next` (and a half-written copy of it), directory flushed.
    package func removeNext() throws {
        try FileSystem.removeLeftover(nextPath + ".tmp", leavingForeign: true)
        try FileSystem.remove(nextPath)
        try FileSystem.sync(DatabaseFile(path: database).directory)
    }

    /// With the current file proved (it gave the open database's key) and the lock held: removes a
    /// debris `.next` (``nextIsDebris``); throws ``KeySlotFailure/operationInProgress(path:)``
    /// for a complete one (a transition to finish first, at the next unlock).
    package func removeNextIfDebris() throws {
        guard hasNext else { return }
        if nextIsDebris { return try removeNext() }
        _ = try readNext()  // a pipe or a directory is its own error
        throw KeySlotFailure.operationInProgress(path: database)
    }

    /// Removes the slot file (after a conversion back to a password), directory flushed.
    package func removeCurrent() throws {
        try FileSystem.removeLeftover(path + ".tmp", leavingForeign: true)
        try FileSystem.remove(path)
        try FileSystem.sync(DatabaseFile(path: database).directory)
    }

    /// After a crash: removes a half-written `.tmp` of either file and the stale lock file,
    /// unless another process or manager is changing the slots right now (it holds the lock).
    package func removeLeftovers() {
        let traces = [path + ".tmp", nextPath + ".tmp", path + OperationLock.suffix]
        guard traces.contains(where: { FileSystem.size(of: $0) != nil }),
            let lock = try? OperationLock.acquire(for: path)
        else { return }
        defer { lock.release() }
        try? FileSystem.removeLeftover(path + ".tmp", leavingForeign: true)
        try? FileSystem.removeLeftover(nextPath + ".tmp", leavingForeign: true)
    }

    /// An exclusive lock on the slot files (`<db>.scm-keys.scm-lock`, ``OperationLock``), held by
    /// every change and by the completion of an interrupted transition.
    package func lock() throws -> OperationLock {
        guard let lock = try OperationLock.acquire(for: path) else {
            throw KeySlotFailure.operationInProgress(path: database)
        }
        return lock
    }
}
