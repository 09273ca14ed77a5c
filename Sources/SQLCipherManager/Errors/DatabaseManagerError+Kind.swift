import SQLCipherCore

// MARK: - The failures

extension DatabaseManagerError {
    /// One case per failure, with the details its message needs. Each case has a static factory
    /// of the same name and labels on ``DatabaseManagerError`` (documented there) and a ``Code``:
    /// a case added here needs both, which the switch in ``code`` enforces.
    package enum Kind: Sendable {
        case notConfigured
        case invalidPassword(reason: String)
        case invalidKeyLength(Int)
        case invalidOption(name: String, reason: String)
        case unsupportedOption(name: String, requires: SQLCipherVersion, linked: SQLCipherVersion)
        case sqlcipherNotLinked
        case encryptionNotActive(path: String)
        case alreadyOpen
        case notOpen
        case fileNotFound(path: String)
        case fileAlreadyExists(path: String)
        case isDirectory(path: String)
        case parentDirectoryMissing(path: String)
        case invalidPath(path: String, reason: String)
        case plaintextDatabase(path: String)
        case notPlaintextDatabase(path: String)
        case incorrectPasswordOrSettings(path: String, keySlotFile: String? = nil)
        case incorrectKeyOrSettings(path: String)
        case notADatabase(path: String, reason: String)
        case corrupt(path: String, underlying: SQLiteError?)
        case permissionDenied(path: String, underlying: SQLiteError?)
        case notWritable(path: String, reason: NotWritableReason)
        case diskFull(path: String, underlying: SQLiteError?)
        case ioError(path: String, underlying: SQLiteError?)
        case busy(path: String, underlying: SQLiteError?)
        case noCachedKey
        case schemaVersionTooNew(found: Int, supported: Int)
        case migrationFailed(version: Int, lastGoodVersion: Int, underlying: any Error)
        case insufficientDiskSpace(path: String, needed: Int64, available: Int64)
        case transactionInProgress
        case verificationFailed(path: String, reason: String)
        case recoveryFailed(path: String, reason: String)
        case operationInProgress(path: String)
        case keyChanged(path: String)
        case headerSaltUnusable(path: String, saltFile: String, problem: HeaderSaltProblem)
        case keyChangeInterrupted(path: String, opensWith: KeyChangeSide?)
        case openElsewhere(path: String, processID: Int?, processName: String?)
        case foreignSidecar(path: String, sidecar: String)
        case untrustedFile(path: String, reason: String)
        case sqlite(SQLiteError)
        case keySlots(KeySlotError)
        case keyUnavailable(identifier: String, underlying: KeyStoreError)
        case keyRefused(identifier: String, path: String)
        case keyNotStored(identifier: String, underlying: KeyStoreError)
        case randomSourceFailed(reason: String)
        case reentrantCall(_ call: String, inside: String)
    }
}
