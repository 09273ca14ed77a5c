import SQLCipherCore

// MARK: - KeySlotFailure

/// Why the slot store or the slot options refused, where the failure is not about the slot
/// file itself (that is a ``KeySlotError``). The key layer says no words to a user: the manager
/// maps each case to its public error where it catches it.
package enum KeySlotFailure: Error, Equatable {
    /// Another process or manager is changing the slots of `path` (the database), or a
    /// transition of them waits to be finished at the next unlock.
    case operationInProgress(path: String)
    /// An option of ``KeySlotOptions`` is out of range.
    case invalidOption(name: String, reason: String)
}
