// MARK: - RecoveryOutcome

/// What ``DatabaseTools/recoverInterruptedOperation(at:)`` did with a rekey, encrypt or
/// decrypt that a crash interrupted.
public enum RecoveryOutcome: String, Sendable, Hashable {
    /// No interrupted operation was recorded for the file.
    case nothingToRecover
    /// The operation had not finished its copy: the copy was removed and the file is as it
    /// was before (old key, or still plaintext).
    case rolledBack
    /// The copy was complete and verified: it was installed (new key, or encrypted), or had
    /// been already, and the leftovers were removed.
    case completed
    /// The journal said the copy was verified, but the file found in the copy's place is not
    /// the one that was (its fingerprint — identity, times, SHA-256 of its first and last pages — differs, or none was recorded): it was removed unread and
    /// the file is as it was before the operation.
    case discardedUnprovenCopy
}
