import SQLCipherCore

// MARK: - The failures, one factory each

extension DatabaseManagerError {
    /// The manager has no database URL: set ``DatabaseManager/databaseURL`` first.
    public static let notConfigured = Self(kind: .notConfigured)

    /// The password does not satisfy the manager's ``PasswordPolicy``.
    public static func invalidPassword(reason: String) -> Self {
        Self(kind: .invalidPassword(reason: reason))
    }

    /// A raw key must be exactly 32 bytes (`PRAGMA key = "x'…'"` semantics).
    public static func invalidKeyLength(_ count: Int) -> Self {
        Self(kind: .invalidKeyLength(count))
    }

    /// An option value is out of range (for example a page size that is not a power of two).
    public static func invalidOption(name: String, reason: String) -> Self {
        Self(kind: .invalidOption(name: name, reason: reason))
    }

    /// The linked SQLCipher is too old for an option (it would silently ignore the pragma).
    public static func unsupportedOption(name: String, requires: SQLCipherVersion, linked: SQLCipherVersion) -> Self {
        Self(kind: .unsupportedOption(name: name, requires: requires, linked: linked))
    }

    /// The process is not linked against SQLCipher: `PRAGMA cipher_version` returned nothing.
    public static let sqlcipherNotLinked = Self(kind: .sqlcipherNotLinked)

    /// Encryption was not active on a file this manager created (its header is plaintext).
    public static func encryptionNotActive(path: String) -> Self {
        Self(kind: .encryptionNotActive(path: path))
    }

    /// A database is already open on this manager: close it first.
    public static let alreadyOpen = Self(kind: .alreadyOpen)

    /// No database is open on this manager: open or create it first.
    public static let notOpen = Self(kind: .notOpen)

    /// `open` found no file at the path. `open` never creates one.
    public static func fileNotFound(path: String) -> Self {
        Self(kind: .fileNotFound(path: path))
    }

    /// `create` found a file at the path. `create` never overwrites one.
    public static func fileAlreadyExists(path: String) -> Self {
        Self(kind: .fileAlreadyExists(path: path))
    }

    /// The path names a directory, not a file.
    public static func isDirectory(path: String) -> Self {
        Self(kind: .isDirectory(path: path))
    }

    /// The directory that should hold the database does not exist.
    public static func parentDirectoryMissing(path: String) -> Self {
        Self(kind: .parentDirectoryMissing(path: path))
    }

    /// The file system refuses the path itself (a name or the whole path is too long).
    public static func invalidPath(path: String, reason: String) -> Self {
        Self(kind: .invalidPath(path: path, reason: reason))
    }

    /// The file is a plaintext (unencrypted) SQLite database.
    public static func plaintextDatabase(path: String) -> Self {
        Self(kind: .plaintextDatabase(path: path))
    }

    /// The file is encrypted (or not a database) where a plaintext SQLite database was expected.
    public static func notPlaintextDatabase(path: String) -> Self {
        Self(kind: .notPlaintextDatabase(path: path))
    }

    /// The key did not decrypt the file: wrong password, or other cipher settings (kdf_iter,
    /// page size, HMAC, SQLCipher major version) than the ones it was written with.
    ///
    /// For a key-slot database `keySlotFile` names its slot file (`<db>.scm-keys`): no slot
    /// accepted the password (or recovery key), and cipher settings cannot be the reason (the
    /// slots hold the key). Either way the case means "wrong password" to a login prompt.
    public static func incorrectPasswordOrSettings(path: String, keySlotFile: String? = nil) -> Self {
        Self(kind: .incorrectPasswordOrSettings(path: path, keySlotFile: keySlotFile))
    }

    /// The raw 32-byte key given to ``DatabaseManager/open(_:)`` (or cached from one) did
    /// not decrypt the file: another key, or other cipher settings. A raw key is never typed by
    /// a person, so the remedy is not "try again" but to check where the key came from.
    public static func incorrectKeyOrSettings(path: String) -> Self {
        Self(kind: .incorrectKeyOrSettings(path: path))
    }

    /// The file cannot be an SQLCipher database (empty, too short, or an impossible size).
    public static func notADatabase(path: String, reason: String) -> Self {
        Self(kind: .notADatabase(path: path, reason: reason))
    }

    /// The file decrypted but its content is damaged (SQLCipher's HMAC check failed, or a
    /// page is missing).
    public static func corrupt(path: String, underlying: SQLiteError?) -> Self {
        Self(kind: .corrupt(path: path, underlying: underlying))
    }

    /// The operating system refused access to the file or its directory.
    public static func permissionDenied(path: String, underlying: SQLiteError?) -> Self {
        Self(kind: .permissionDenied(path: path, underlying: underlying))
    }

    /// A write to the database was refused because the file cannot be written (SQLite's
    /// `SQLITE_READONLY`): `reason` says why — the immutable flag, a read-only file system, or
    /// the permissions of the file or its directory. The SQL is not the cause; nothing was written.
    public static func notWritable(path: String, reason: NotWritableReason) -> Self {
        Self(kind: .notWritable(path: path, reason: reason))
    }

    /// The disk or the process's file size limit is full.
    public static func diskFull(path: String, underlying: SQLiteError?) -> Self {
        Self(kind: .diskFull(path: path, underlying: underlying))
    }

    /// An input/output error occurred.
    public static func ioError(path: String, underlying: SQLiteError?) -> Self {
        Self(kind: .ioError(path: path, underlying: underlying))
    }

    /// Another connection or process held a lock on the file for longer than
    /// ``DatabaseConfiguration/busyTimeout`` (`SQLITE_BUSY` / `SQLITE_LOCKED`).
    public static func busy(path: String, underlying: SQLiteError?) -> Self {
        Self(kind: .busy(path: path, underlying: underlying))
    }

    /// No key is cached (neither a password's key nor a raw key): open the database with its
    /// password or key first.
    public static let noCachedKey = Self(kind: .noCachedKey)

    /// The file's schema (`PRAGMA user_version`) is newer than this app understands.
    public static func schemaVersionTooNew(found: Int, supported: Int) -> Self {
        Self(kind: .schemaVersionTooNew(found: found, supported: supported))
    }

    /// A schema migration step failed; the database stays at `lastGoodVersion`.
    public static func migrationFailed(version: Int, lastGoodVersion: Int, underlying: any Error) -> Self {
        Self(kind: .migrationFailed(version: version, lastGoodVersion: lastGoodVersion, underlying: underlying))
    }

    /// A rekey, encrypt or decrypt needs about twice the database's size free in its directory,
    /// and less is available. Nothing was written.
    public static func insufficientDiskSpace(path: String, needed: Int64, available: Int64) -> Self {
        Self(kind: .insufficientDiskSpace(path: path, needed: needed, available: available))
    }

    /// A rekey or decrypt was asked for inside a transaction. Nothing was written.
    public static let transactionInProgress = Self(kind: .transactionInProgress)

    /// The exported copy did not match its source (integrity check, schema, row counts,
    /// user_version, application_id) or could not be opened with its key. It was removed and
    /// the database is as it was.
    public static func verificationFailed(path: String, reason: String) -> Self {
        Self(kind: .verificationFailed(path: path, reason: reason))
    }

    /// An interrupted rekey, encrypt or decrypt could not be finished or rolled back (for
    /// example a journal this code did not write). The files were left as they are.
    public static func recoveryFailed(path: String, reason: String) -> Self {
        Self(kind: .recoveryFailed(path: path, reason: reason))
    }

    /// Another process or manager is rekeying, encrypting or decrypting this file right now
    /// (it holds `<file>.scm-lock`). Nothing was changed.
    public static func operationInProgress(path: String) -> Self {
        Self(kind: .operationInProgress(path: path))
    }

    /// The database's key was changed in place (a rekey by another program, or by a connection
    /// this manager does not know) while this connection was open with the old key: its next
    /// statement found that the first page no longer decrypts. The connection was closed and
    /// nothing was written with the old key. Open the database again with its new password.
    public static func keyChanged(path: String) -> Self {
        Self(kind: .keyChanged(path: path))
    }

    /// The database keeps its first 32 bytes in plaintext (``CipherOptions/plaintextHeader``)
    /// and its salt in `saltFile`, which is missing, damaged, or (with a key that is refused)
    /// perhaps not this database's: restore the salt file kept with the database.
    public static func headerSaltUnusable(path: String, saltFile: String, problem: HeaderSaltProblem) -> Self {
        Self(kind: .headerSaltUnusable(path: path, saltFile: saltFile, problem: problem))
    }

    /// A password (key) change in place was interrupted (its program stopped mid-change), and
    /// the key given does not open the file. Its transaction makes the file open with exactly
    /// one of the key before and the key after; `opensWith` says which, when the key given was
    /// recognised as one of the two (`nil`: neither). Nothing was changed.
    public static func keyChangeInterrupted(path: String, opensWith: KeyChangeSide?) -> Self {
        Self(kind: .keyChangeInterrupted(path: path, opensWith: opensWith))
    }

    /// A change that needs a new file (cipher settings, encrypting a plaintext file in place,
    /// adopting one on open) was refused because another program has the database open
    /// (`processID` and `processName` when known: on Linux from `/proc`, in WAL mode also from
    /// SQLite's lock on the `-shm`): the new file is installed by `rename` only while nobody else
    /// has the old one, whose connections would go on with it. Nothing was changed. Close the
    /// database in that program, then run again.
    public static func openElsewhere(path: String, processID: Int?, processName: String?) -> Self {
        Self(kind: .openElsewhere(path: path, processID: processID, processName: processName))
    }

    /// A `-journal` or `-wal` beside the database does not belong to it: replaying it (on a
    /// private copy) gives a file that does not open or check with the key, while the database
    /// alone does. SQLite would have written it into the database; nothing was changed.
    public static func foreignSidecar(path: String, sidecar: String) -> Self {
        Self(kind: .foreignSidecar(path: path, sidecar: sidecar))
    }

    /// A file the library would create, replace or read beside a database is not one it made
    /// (a symbolic link, another user's file, something other than a file, or larger than any it
    /// writes); it was left alone and nothing was written through it.
    public static func untrustedFile(path: String, reason: String) -> Self {
        Self(kind: .untrustedFile(path: path, reason: reason))
    }

    /// A statement failed.
    public static func sqlite(_ error: SQLiteError) -> Self {
        Self(kind: .sqlite(error))
    }

    /// A key-slot database, or a call on its ``DatabaseManager/keySlots``, failed for a reason of
    /// its slot file (`<db>.scm-keys`) or its slots: `error` says which (the slot file missing,
    /// damaged, edited or outdated; no such slot; the last slot; not a key-slot database…) and
    /// what to do. A wrong password or recovery key is
    /// ``incorrectPasswordOrSettings(path:keySlotFile:)``, as for any database.
    public static func keySlots(_ error: KeySlotError) -> Self {
        Self(kind: .keySlots(error))
    }

    /// The database's key could not be read from its ``KeyStore``: the store is locked or
    /// unreachable, a key file's permissions are unsafe, or no key is stored while an encrypted
    /// database exists (`underlying` is then ``KeyStoreError/notStored(identifier:store:)``).
    /// The file was not touched and **no new key was made**. `underlying` is what the store
    /// threw (a store's own error type as ``KeyStoreError/failed(location:reason:)``).
    public static func keyUnavailable(identifier: String, underlying: KeyStoreError) -> Self {
        Self(kind: .keyUnavailable(identifier: identifier, underlying: underlying))
    }

    /// The key loaded from the ``KeyStore`` does not decrypt the database (another key, or other
    /// cipher settings). The file was not touched.
    public static func keyRefused(identifier: String, path: String) -> Self {
        Self(kind: .keyRefused(identifier: identifier, path: path))
    }

    /// A new key could not be stored, so no database was created or encrypted with it.
    /// `underlying` is what the store threw (a store's own error type as
    /// ``KeyStoreError/failed(location:reason:)``), or ``KeyStoreError/notStored(identifier:store:)``
    /// when the store reported a key already stored and then found none.
    public static func keyNotStored(identifier: String, underlying: KeyStoreError) -> Self {
        Self(kind: .keyNotStored(identifier: identifier, underlying: underlying))
    }

    /// The operating system's secure random source failed (`getentropy`).
    public static func randomSourceFailed(reason: String) -> Self {
        Self(kind: .randomSourceFailed(reason: reason))
    }

    /// A manager call was made from inside one of the same manager's `read`, `write`,
    /// `transaction` or `withDatabase` closures, where it would wait for that closure to end
    /// (a deadlock) or pull the connection from under it: `call` names the call, `inside` the
    /// closure. Nothing was done. Inside a closure, use the ``Database`` it was given; make the
    /// call after the closure returns.
    public static func reentrantCall(_ call: String, inside: String) -> Self {
        Self(kind: .reentrantCall(call, inside: inside))
    }
}
