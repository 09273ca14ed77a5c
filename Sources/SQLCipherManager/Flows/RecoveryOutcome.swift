// MARK: - RecoveryOutcome

/// What ``DatabaseTools/recoverInterruptedOperation(at:)`` found on disk, and did, after a
/// settings change, encrypt or decrypt that a crash interrupted: each case says which file is at
/// the path now, as recovery checked it (the copy by its device and inode or fingerprint), never
/// only the phase the journal had reached.
public enum RecoveryOutcome: String, Sendable, Hashable {
    /// No interrupted operation was recorded for the file.
    case nothingToRecover
    /// The original is at the path (old key and settings, or still plaintext), with every row;
    /// the copy was removed. For a copy to a new path: nothing of the operation is at the path.
    case rolledBack
    /// The verified copy is at the path (new key and settings, encrypted, or the complete
    /// plaintext copy): it had been installed, or recovery installed it. Leftovers were removed.
    case completed
    /// The journal said the copy was verified, but the file found in the copy's place is not
    /// the one that was (its fingerprint — identity, times, SHA-256 of its first and last pages —
    /// differs, or none was recorded): it was removed unread, and the original is at the path.
    case discardedUnprovenCopy
}
