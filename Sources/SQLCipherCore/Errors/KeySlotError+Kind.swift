// MARK: - The failures

extension KeySlotError {
    /// One case per failure, with the details its message needs. Each case has a static factory
    /// of the same name and labels on ``KeySlotError`` (documented there) and a ``Code``: a case added
    /// here needs both, which the switch in ``code`` enforces.
    package enum Kind: Sendable, Equatable {
        case slotFileMissing(path: String, database: String)
        case slotFileDamaged(path: String, reason: String)
        case slotFileTampered(path: String)
        case slotFileMismatch(path: String, database: String)
        case slotFileOutdated(path: String, database: String)
        case slotFileNotAFile(path: String, kind: String)
        case slotLimitReached(reason: String)
        case notKeySlotDatabase(path: String)
        case keySlotDatabase(path: String)
        case backupNeedsItsOwnKey(path: String)
        case lastSlot(id: Int)
        case slotNotFound(id: Int)
        case weakKeyDerivation(Argon2Parameters, minimum: Argon2Parameters)
        case invalidKeyDerivation(Argon2Parameters)
        case invalidRecoveryKey(reason: String)
    }
}

// MARK: - The failures, one factory each

extension KeySlotError {
    /// The database was created with key slots (its header says so) but `<db>.scm-keys` is not
    /// beside it. The database file was not touched.
    public static func slotFileMissing(path: String, database: String) -> Self {
        Self(.slotFileMissing(path: path, database: database))
    }

    /// `<db>.scm-keys` is truncated, not a key-slot file, or a field is out of range. The
    /// database file was not touched.
    public static func slotFileDamaged(path: String, reason: String) -> Self {
        Self(.slotFileDamaged(path: path, reason: reason))
    }

    /// A slot opened but the file's authenticator (keyed with the data key) does not match: the
    /// file was edited, or slots were copied in from another file. The database file was not touched.
    public static func slotFileTampered(path: String) -> Self {
        Self(.slotFileTampered(path: path))
    }

    /// `<db>.scm-keys` belongs to another database (its identity does not match the database's
    /// header). The database file was not touched.
    public static func slotFileMismatch(path: String, database: String) -> Self {
        Self(.slotFileMismatch(path: path, database: database))
    }

    /// `<db>.scm-keys` is an older copy than the one the database records (its revision is
    /// lower, or its data key no longer opens the database): put back after a password change,
    /// a removal or a rotation. Refused so that a revoked secret stays revoked. The database
    /// file was not touched.
    public static func slotFileOutdated(path: String, database: String) -> Self {
        Self(.slotFileOutdated(path: path, database: database))
    }

    /// `<db>.scm-keys` (or `.next`) is not a regular file — a directory, a named pipe, a device:
    /// `kind` says which. Nothing was read from it and the database file was not touched.
    public static func slotFileNotAFile(path: String, kind: String) -> Self {
        Self(.slotFileNotAFile(path: path, kind: kind))
    }

    /// Adding a slot would pass the limits every slot file is held to (the slot count, or the
    /// total Argon2id work of one unlock); nothing changed.
    public static func slotLimitReached(reason: String) -> Self {
        Self(.slotLimitReached(reason: reason))
    }

    /// The call needs a key-slot database, and this one is keyed with a password or raw key.
    public static func notKeySlotDatabase(path: String) -> Self {
        Self(.notKeySlotDatabase(path: path))
    }

    /// The call needs a plain password database, and this one uses key slots (or has a
    /// `<db>.scm-keys` beside it).
    public static func keySlotDatabase(path: String) -> Self {
        Self(.keySlotDatabase(path: path))
    }

    /// A backup of a key-slot database is written as a password database, so it needs a key
    /// of its own: a new password or a raw key (see ``DatabaseManager/backup(to:key:options:progress:)-2vlr9``).
    /// Nothing was written.
    public static func backupNeedsItsOwnKey(path: String) -> Self {
        Self(.backupNeedsItsOwnKey(path: path))
    }

    /// Removing this slot would leave no way to unlock the database.
    public static func lastSlot(id: Int) -> Self {
        Self(.lastSlot(id: id))
    }

    /// No slot has this id.
    public static func slotNotFound(id: Int) -> Self {
        Self(.slotNotFound(id: id))
    }

    /// Argon2id parameters below ``Argon2Parameters/minimum`` without
    /// ``KeySlotOptions/allowsWeakKeyDerivation``.
    public static func weakKeyDerivation(_ parameters: Argon2Parameters, minimum: Argon2Parameters) -> Self {
        Self(.weakKeyDerivation(parameters, minimum: minimum))
    }

    /// Argon2id parameters libsodium refuses or above ``Argon2Parameters/maximum``.
    public static func invalidKeyDerivation(_ parameters: Argon2Parameters) -> Self {
        Self(.invalidKeyDerivation(parameters))
    }

    /// A recovery key that is not in the written form (8 groups of 5 letters and digits) or whose
    /// check characters do not match: a typing mistake.
    public static func invalidRecoveryKey(reason: String) -> Self {
        Self(.invalidRecoveryKey(reason: reason))
    }
}
