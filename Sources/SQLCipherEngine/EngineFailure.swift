import SQLCipherCore

// MARK: - EngineFailure

/// Why an export-based operation (``ExportOperation``, ``ExclusiveAccess``, ``OperationJournal``)
/// refused or failed, with what the manager's message needs. The engine says no words to a user:
/// the manager maps each case to its public error where it catches it, and a file-system failure
/// or an ``SQLiteError`` goes up as it is.
package enum EngineFailure: Error {
    /// Another connection of this process, or a lock that would not clear, kept the file.
    case busy(path: String, underlying: SQLiteError)
    /// Another program has the file open (`processID` and `processName` when known).
    case openElsewhere(path: String, processID: Int?, processName: String?)
    /// The file to replace is gone.
    case fileNotFound(path: String)
    /// A create found a file at its target.
    case fileAlreadyExists(path: String)
    /// A create's target directory does not exist.
    case parentDirectoryMissing(path: String)
    /// The file or its directory cannot be written.
    case permissionDenied(path: String)
    /// Less free space than the copy needs (about twice the source).
    case insufficientDiskSpace(path: String, needed: Int64, available: Int64)
    /// Another process or manager holds the operation lock.
    case operationInProgress(path: String)
    /// A copy meant to be encrypted has a plaintext header.
    case encryptionNotActive(path: String)
    /// The copy does not match its source; `reason` says how.
    case verificationFailed(path: String, reason: String)
    /// The copy did not open for its verification: `underlying` is what refused it (the
    /// ``ExportOperation/CopyOpener``'s error, or ``encryptionNotActive(path:)``).
    case copyRefused(path: String, underlying: any Error)
    /// The journal beside `path` is not one this code wrote.
    case recoveryFailed(path: String, reason: String)
}
