import SQLCipherCore

// MARK: - The details an app acts on

extension DatabaseManagerError {
    /// The file the failure is about (the database, or the file beside it that was refused), or
    /// `nil` for a failure of no file (``Code/notOpen``, ``Code/invalidPassword``…).
    public var path: String? {
        switch kind {
        case .encryptionNotActive(let path), .fileNotFound(let path), .fileAlreadyExists(let path),
            .isDirectory(let path), .parentDirectoryMissing(let path), .invalidPath(let path, _),
            .plaintextDatabase(let path), .notPlaintextDatabase(let path), .incorrectPasswordOrSettings(let path, _),
            .incorrectKeyOrSettings(let path), .notADatabase(let path, _), .corrupt(let path, _),
            .permissionDenied(let path, _), .notWritable(let path, _), .diskFull(let path, _), .ioError(let path, _),
            .busy(let path, _), .insufficientDiskSpace(let path, _, _), .verificationFailed(let path, _),
            .recoveryFailed(let path, _), .operationInProgress(let path), .keyChanged(let path),
            .headerSaltUnusable(let path, _, _), .keyChangeInterrupted(let path, _), .openElsewhere(let path, _, _),
            .foreignSidecar(let path, _), .untrustedFile(let path, _), .keyRefused(_, let path):
            path
        case .notConfigured, .invalidPassword, .invalidKeyLength, .invalidOption, .unsupportedOption, .sqlcipherNotLinked,
            .alreadyOpen, .notOpen, .noCachedKey, .schemaVersionTooNew, .migrationFailed, .transactionInProgress, .sqlite,
            .keySlots, .keyUnavailable, .keyNotStored, .randomSourceFailed, .reentrantCall:
            nil
        }
    }

    /// Why, in words, where the failure has a reason of its own (an invalid password or option,
    /// a path the file system refuses, a file that is not a database, a failed verification or
    /// recovery, a refused file, a failed random source); `nil` otherwise. It is part of
    /// ``description``, which also says what to do.
    public var reason: String? {
        switch kind {
        case .invalidPassword(let reason), .invalidOption(_, let reason), .invalidPath(_, let reason),
            .notADatabase(_, let reason), .verificationFailed(_, let reason), .recoveryFailed(_, let reason),
            .untrustedFile(_, let reason), .randomSourceFailed(let reason):
            reason
        default:
            nil
        }
    }

    /// The SQLite error behind the failure, where there is one: a failed statement
    /// (``Code/sqlite``), or the result code behind ``Code/corrupt``, ``Code/permissionDenied``,
    /// ``Code/diskFull``, ``Code/ioError`` and ``Code/busy`` when SQLite reported it.
    public var sqliteError: SQLiteError? {
        switch kind {
        case .sqlite(let error): error
        case .corrupt(_, let error), .permissionDenied(_, let error), .diskFull(_, let error), .ioError(_, let error),
            .busy(_, let error):
            error
        default: nil
        }
    }

    /// The error of a lower layer this one wraps: ``sqliteError``, ``keySlotError``,
    /// ``keyStoreError``, or what a failed migration step threw (``Code/migrationFailed``).
    public var underlying: (any Error)? {
        if case .migrationFailed(_, _, let error) = kind { return error }
        return sqliteError ?? keySlotError ?? keyStoreError
    }

    /// What went wrong with a key-slot database's slot file or slots (``Code/keySlots``).
    public var keySlotError: KeySlotError? {
        if case .keySlots(let error) = kind { error } else { nil }
    }

    /// What the ``KeyStore`` threw when a key could not be read (``Code/keyUnavailable``) or
    /// stored (``Code/keyNotStored``).
    public var keyStoreError: KeyStoreError? {
        switch kind {
        case .keyUnavailable(_, let error), .keyNotStored(_, let error): error
        default: nil
        }
    }

    /// The identifier of the key in its ``KeyStore`` (``Code/keyUnavailable``,
    /// ``Code/keyRefused``, ``Code/keyNotStored``).
    public var keyIdentifier: String? {
        switch kind {
        case .keyUnavailable(let identifier, _), .keyRefused(let identifier, _), .keyNotStored(let identifier, _):
            identifier
        default: nil
        }
    }

    /// The slot file (`<db>.scm-keys`) none of whose slots accepted the password or recovery key
    /// (``Code/incorrectPasswordOrSettings`` of a key-slot database).
    public var keySlotFile: String? {
        if case .incorrectPasswordOrSettings(_, let file) = kind { file } else { nil }
    }

    /// The schema version found in the file and the newest this app supports
    /// (``Code/schemaVersionTooNew``).
    public var schemaVersion: (found: Int, supported: Int)? {
        if case .schemaVersionTooNew(let found, let supported) = kind { (found, supported) } else { nil }
    }

    /// The version a failed migration step was to reach, and the version the database stays at
    /// (``Code/migrationFailed``).
    public var migration: (version: Int, lastGoodVersion: Int)? {
        if case .migrationFailed(let version, let lastGood, _) = kind { (version, lastGood) } else { nil }
    }

    /// The process that has the database open (``Code/openElsewhere``), when it is known.
    public var processID: Int? {
        if case .openElsewhere(_, let processID, _) = kind { processID } else { nil }
    }

    /// Why a file cannot be written (``Code/notWritable``).
    public var notWritableReason: NotWritableReason? {
        if case .notWritable(_, let reason) = kind { reason } else { nil }
    }

    /// What is wrong with a plaintext-header database's salt file (``Code/headerSaltUnusable``).
    public var headerSaltProblem: HeaderSaltProblem? {
        if case .headerSaltUnusable(_, _, let problem) = kind { problem } else { nil }
    }

    /// Which key opens a file whose key change was interrupted (``Code/keyChangeInterrupted``):
    /// `nil` when the key given was neither, or for another failure.
    public var keyChangeSide: KeyChangeSide? {
        if case .keyChangeInterrupted(_, let side) = kind { side } else { nil }
    }
}

/// A ``KeySlotError`` code matches the manager's error that holds it.
extension DatabaseManagerError: KeySlotErrorCarrier {}
