// MARK: - PendingOperation
import SQLCipherCore
import SQLCipherEngine

/// A rekey, encrypt, decrypt or format upgrade recorded beside a database file (`<file>.scm-journal`) that has
/// not finished: it is still running in some process, or it was interrupted (process killed,
/// power lost) and the next create, open or ``DatabaseTools/recoverInterruptedOperation(at:)``
/// finishes or rolls it back. Reported by ``DatabaseFileInfo/pendingOperation``.
public struct PendingOperation: Sendable, Equatable {
    /// What was being done.
    public enum Kind: String, Sendable {
        /// A password or settings change (``DatabaseManager/rekey(to:options:progress:)``).
        case rekey
        /// Encrypting a plaintext file.
        case encrypt
        /// Writing a plaintext copy.
        case decrypt
        /// Rewriting a file in the linked SQLCipher's format (``DatabaseManager/upgradeFormat(progress:)``).
        case upgrade
        /// A journal this code cannot read.
        case unknown
    }

    /// How far it got.
    public enum Phase: String, Sendable {
        /// The copy was being written or verified: recovery rolls back (the file keeps its old
        /// key, or stays plaintext).
        case copying
        /// The copy was complete, verified and on disk: recovery keeps it if it is at the path
        /// (or links it to a new path), and otherwise keeps the original, which has every row.
        case verified
        /// The journal cannot be read: recovery refuses, and says which file to move away.
        case unreadable
    }

    /// The operation.
    public let kind: Kind
    /// Its phase.
    public let phase: Phase
    /// `true` while a process (this one or another) runs it: it holds `<file>.scm-lock`.
    public let isRunning: Bool

    /// The operation recorded beside `path`, or `nil` when there is none. Reads the journal
    /// and tests the lock; changes nothing.
    init?(atResolvedPath path: String) {
        let lockHeld = OperationLock.isHeld(for: path)
        do {
            guard let journal = try OperationJournal.read(for: path) else {
                guard lockHeld else { return nil }
                // A lock without a journal: an operation that is just starting.
                kind = .unknown
                phase = .copying
                isRunning = true
                return
            }
            kind = Kind(rawValue: journal.operation.rawValue) ?? .unknown
            phase = journal.phase == .export ? .copying : .verified
        } catch {
            kind = .unknown
            phase = .unreadable
        }
        isRunning = lockHeld
    }
}
