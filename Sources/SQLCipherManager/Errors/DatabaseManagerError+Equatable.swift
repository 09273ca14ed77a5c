import SQLCipherCore

// MARK: - Equality

extension DatabaseManagerError: Equatable {
    /// Two errors are equal when they are the same failure (``code``) with equal details. The
    /// `underlying` error of a failed migration (whatever the migrator threw) compares with its
    /// own `==` when its type is `Equatable`, else by its text.
    public static func == (lhs: DatabaseManagerError, rhs: DatabaseManagerError) -> Bool {
        lhs.kind == rhs.kind
    }
}

extension DatabaseManagerError.Kind: Equatable {
    /// Two failures are equal when they are the same case with equal associated values.
    ///
    /// Every associated value is `Equatable` except the `underlying` error of
    /// ``migrationFailed(version:lastGoodVersion:underlying:)``, which is whatever the migrator
    /// threw (`any Error`). Two of those are equal when they have the same dynamic type and, for an
    /// `Equatable` type, its own `==` says so (``SQLiteError``, ``MigrationError/stepFailed(version:lastGoodVersion:underlying:)``…), or, for
    /// any other type, their `String(describing:)` texts are the same.
    ///
    /// The switch lists every case of `lhs`, with no `default`, and each compares only with the
    /// same case of `rhs`: a new case does not compile until it has its own comparison, and never
    /// compares equal to another case.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        switch lhs {
        case .notConfigured:
            if case .notConfigured = rhs { return true }
        case .invalidPassword(let l0):
            if case .invalidPassword(let r0) = rhs { return l0 == r0 }
        case .invalidKeyLength(let l0):
            if case .invalidKeyLength(let r0) = rhs { return l0 == r0 }
        case .invalidOption(let l0, let l1):
            if case .invalidOption(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .unsupportedOption(let l0, let l1, let l2):
            if case .unsupportedOption(let r0, let r1, let r2) = rhs { return l0 == r0 && l1 == r1 && l2 == r2 }
        case .sqlcipherNotLinked:
            if case .sqlcipherNotLinked = rhs { return true }
        case .encryptionNotActive(let l0):
            if case .encryptionNotActive(let r0) = rhs { return l0 == r0 }
        case .alreadyOpen:
            if case .alreadyOpen = rhs { return true }
        case .notOpen:
            if case .notOpen = rhs { return true }
        case .fileNotFound(let l0):
            if case .fileNotFound(let r0) = rhs { return l0 == r0 }
        case .fileAlreadyExists(let l0):
            if case .fileAlreadyExists(let r0) = rhs { return l0 == r0 }
        case .isDirectory(let l0):
            if case .isDirectory(let r0) = rhs { return l0 == r0 }
        case .parentDirectoryMissing(let l0):
            if case .parentDirectoryMissing(let r0) = rhs { return l0 == r0 }
        case .invalidPath(let l0, let l1):
            if case .invalidPath(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .plaintextDatabase(let l0):
            if case .plaintextDatabase(let r0) = rhs { return l0 == r0 }
        case .notPlaintextDatabase(let l0):
            if case .notPlaintextDatabase(let r0) = rhs { return l0 == r0 }
        case .incorrectPasswordOrSettings(let l0, let l1):
            if case .incorrectPasswordOrSettings(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .incorrectKeyOrSettings(let l0):
            if case .incorrectKeyOrSettings(let r0) = rhs { return l0 == r0 }
        case .notADatabase(let l0, let l1):
            if case .notADatabase(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .corrupt(let l0, let l1):
            if case .corrupt(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .permissionDenied(let l0, let l1):
            if case .permissionDenied(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .diskFull(let l0, let l1):
            if case .diskFull(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .ioError(let l0, let l1):
            if case .ioError(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .busy(let l0, let l1):
            if case .busy(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .noCachedKey:
            if case .noCachedKey = rhs { return true }
        case .schemaVersionTooNew(let l0, let l1):
            if case .schemaVersionTooNew(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .migrationFailed(let l0, let l1, let l2):
            if case .migrationFailed(let r0, let r1, let r2) = rhs { return l0 == r0 && l1 == r1 && equalErrors(l2, r2) }
        case .insufficientDiskSpace(let l0, let l1, let l2):
            if case .insufficientDiskSpace(let r0, let r1, let r2) = rhs { return l0 == r0 && l1 == r1 && l2 == r2 }
        case .transactionInProgress:
            if case .transactionInProgress = rhs { return true }
        case .verificationFailed(let l0, let l1):
            if case .verificationFailed(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .recoveryFailed(let l0, let l1):
            if case .recoveryFailed(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .operationInProgress(let l0):
            if case .operationInProgress(let r0) = rhs { return l0 == r0 }
        case .keyChanged(let l0):
            if case .keyChanged(let r0) = rhs { return l0 == r0 }
        case .headerSaltUnusable(let l0, let l1, let l2):
            if case .headerSaltUnusable(let r0, let r1, let r2) = rhs { return l0 == r0 && l1 == r1 && l2 == r2 }
        case .keyChangeInterrupted(let l0, let l1):
            if case .keyChangeInterrupted(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .openElsewhere(let l0, let l1, let l2):
            if case .openElsewhere(let r0, let r1, let r2) = rhs { return l0 == r0 && l1 == r1 && l2 == r2 }
        case .foreignSidecar(let l0, let l1):
            if case .foreignSidecar(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .untrustedFile(let l0, let l1):
            if case .untrustedFile(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .notWritable(let l0, let l1):
            if case .notWritable(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .sqlite(let l0):
            if case .sqlite(let r0) = rhs { return l0 == r0 }
        case .keySlots(let l0):
            if case .keySlots(let r0) = rhs { return l0 == r0 }
        case .keyUnavailable(let l0, let l1):
            if case .keyUnavailable(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .keyRefused(let l0, let l1):
            if case .keyRefused(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .keyNotStored(let l0, let l1):
            if case .keyNotStored(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        case .randomSourceFailed(let l0):
            if case .randomSourceFailed(let r0) = rhs { return l0 == r0 }
        case .reentrantCall(let l0, let l1):
            if case .reentrantCall(let r0, let r1) = rhs { return l0 == r0 && l1 == r1 }
        }
        return false
    }
}
