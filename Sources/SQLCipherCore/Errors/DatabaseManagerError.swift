import Foundation

// MARK: - DatabaseManagerError

/// Why a ``DatabaseManager`` flow (create, open, rekey, migrate…) failed.
///
/// Every case says what happened to which file and what to do next. None of them ever
/// carries a password or a key. When a case wraps a ``SQLiteError``, the C library's code and
/// message are kept for diagnosis.
public enum DatabaseManagerError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The manager has no database URL: set ``DatabaseManager/databaseURL`` first.
    case notConfigured
    /// The password does not satisfy the manager's ``PasswordPolicy``.
    case invalidPassword(reason: String)
    /// A raw key must be exactly 32 bytes (`PRAGMA key = "x'…'"` semantics).
    case invalidKeyLength(Int)
    /// An option value is out of range (for example a page size that is not a power of two).
    case invalidOption(name: String, reason: String)
    /// The linked SQLCipher is too old for an option (it would silently ignore the pragma).
    case unsupportedOption(name: String, requires: SQLCipherVersion, linked: SQLCipherVersion)
    /// The process is not linked against SQLCipher: `PRAGMA cipher_version` returned nothing.
    case sqlcipherNotLinked
    /// Encryption was not active on a file this manager created (its header is plaintext).
    case encryptionNotActive(path: String)
    /// A database is already open on this manager: close it first.
    case alreadyOpen
    /// No database is open on this manager: open or create it first.
    case notOpen
    /// `open` found no file at the path. `open` never creates one.
    case fileNotFound(path: String)
    /// `create` found a file at the path. `create` never overwrites one.
    case fileAlreadyExists(path: String)
    /// The path names a directory, not a file.
    case isDirectory(path: String)
    /// The directory that should hold the database does not exist.
    case parentDirectoryMissing(path: String)
    /// The file system refuses the path itself (a name or the whole path is too long).
    case invalidPath(path: String, reason: String)
    /// The file is a plaintext (unencrypted) SQLite database.
    case plaintextDatabase(path: String)
    /// The file is encrypted (or not a database) where a plaintext SQLite database was expected.
    case notPlaintextDatabase(path: String)
    /// The key did not decrypt the file: wrong password, or other cipher settings (kdf_iter,
    /// page size, HMAC, SQLCipher major version) than the ones it was written with.
    ///
    /// For a key-slot database `keySlotFile` names its slot file (`<db>.scm-keys`): no slot
    /// accepted the password (or recovery key), and cipher settings cannot be the reason (the
    /// slots hold the key). Either way the case means "wrong password" to a login prompt.
    case incorrectPasswordOrSettings(path: String, keySlotFile: String? = nil)
    /// The raw 32-byte key given to ``DatabaseManager/open(_:)`` (or cached from one) did
    /// not decrypt the file: another key, or other cipher settings. A raw key is never typed by
    /// a person, so the remedy is not "try again" but to check where the key came from.
    case incorrectKeyOrSettings(path: String)
    /// The file cannot be an SQLCipher database (empty, too short, or an impossible size).
    case notADatabase(path: String, reason: String)
    /// The file decrypted but its content is damaged (SQLCipher's HMAC check failed, or a
    /// page is missing).
    case corrupt(path: String, underlying: SQLiteError?)
    /// The operating system refused access to the file or its directory.
    case permissionDenied(path: String, underlying: SQLiteError?)
    /// A write to the database was refused because the file cannot be written (SQLite's
    /// `SQLITE_READONLY`): `reason` says why — the immutable flag, a read-only file system, or
    /// the permissions of the file or its directory. The SQL is not the cause; nothing was written.
    case notWritable(path: String, reason: NotWritableReason)
    /// The disk or the process's file size limit is full.
    case diskFull(path: String, underlying: SQLiteError?)
    /// An input/output error occurred.
    case ioError(path: String, underlying: SQLiteError?)
    /// Another connection or process held a lock on the file for longer than
    /// ``DatabaseConfiguration/busyTimeout`` (`SQLITE_BUSY` / `SQLITE_LOCKED`).
    case busy(path: String, underlying: SQLiteError?)
    /// No key is cached (neither a password's key nor a raw key): open the database with its
    /// password or key first.
    case noCachedKey
    /// The file's schema (`PRAGMA user_version`) is newer than this app understands.
    case schemaVersionTooNew(found: Int, supported: Int)
    /// A schema migration step failed; the database stays at `lastGoodVersion`.
    case migrationFailed(version: Int, lastGoodVersion: Int, underlying: any Error)
    /// A rekey, encrypt or decrypt needs about twice the database's size free in its directory,
    /// and less is available. Nothing was written.
    case insufficientDiskSpace(path: String, needed: Int64, available: Int64)
    /// A rekey or decrypt was asked for inside a transaction. Nothing was written.
    case transactionInProgress
    /// The exported copy did not match its source (integrity check, schema, row counts,
    /// user_version, application_id) or could not be opened with its key. It was removed and
    /// the database is as it was.
    case verificationFailed(path: String, reason: String)
    /// An interrupted rekey, encrypt or decrypt could not be finished or rolled back (for
    /// example a journal this code did not write). The files were left as they are.
    case recoveryFailed(path: String, reason: String)
    /// Another process or manager is rekeying, encrypting or decrypting this file right now
    /// (it holds `<file>.scm-lock`). Nothing was changed.
    case operationInProgress(path: String)
    /// The database's key was changed in place (a rekey by another program, or by a connection
    /// this manager does not know) while this connection was open with the old key: its next
    /// statement found that the first page no longer decrypts. The connection was closed and
    /// nothing was written with the old key. Open the database again with its new password.
    case keyChanged(path: String)
    /// The database keeps its first 32 bytes in plaintext (``CipherOptions/plaintextHeader``)
    /// and its salt in `saltFile`, which is missing, damaged, or (with a key that is refused)
    /// perhaps not this database's: restore the salt file kept with the database.
    case headerSaltUnusable(path: String, saltFile: String, problem: HeaderSaltProblem)
    /// A password (key) change in place was interrupted (its program stopped mid-change), and
    /// the key given does not open the file. Its transaction makes the file open with exactly
    /// one of the key before and the key after; `opensWith` says which, when the key given was
    /// recognised as one of the two (`nil`: neither). Nothing was changed.
    case keyChangeInterrupted(path: String, opensWith: KeyChangeSide?)
    /// A change that needs a new file (cipher settings, encrypting a plaintext file in place,
    /// adopting one on open) was refused because another program has the database open
    /// (`processID` and `processName` when known: on Linux from `/proc`, in WAL mode also from
    /// SQLite's lock on the `-shm`): the new file is installed by `rename` only while nobody else
    /// has the old one, whose connections would go on with it. Nothing was changed. Close the
    /// database in that program, then run again.
    case openElsewhere(path: String, processID: Int?, processName: String?)
    /// A `-journal` or `-wal` beside the database does not belong to it: replaying it (on a
    /// private copy) gives a file that does not open or check with the key, while the database
    /// alone does. SQLite would have written it into the database; nothing was changed.
    case foreignSidecar(path: String, sidecar: String)
    /// A file the library would create, replace or read beside a database is not one it made
    /// (a symbolic link, another user's file, something other than a file, or larger than any it
    /// writes); it was left alone and nothing was written through it.
    case untrustedFile(path: String, reason: String)
    /// A statement failed.
    case sqlite(SQLiteError)
    /// A key-slot database, or a call on its ``DatabaseManager/keySlots``, failed for a reason of
    /// its slot file (`<db>.scm-keys`) or its slots: `error` says which (the slot file missing,
    /// damaged, edited or outdated; no such slot; the last slot; not a key-slot database…) and
    /// what to do. A wrong password or recovery key is
    /// ``incorrectPasswordOrSettings(path:keySlotFile:)``, as for any database.
    case keySlots(KeySlotError)
    /// The database's key could not be read from its ``KeyStore``: the store is locked or
    /// unreachable, a key file's permissions are unsafe, or no key is stored while an encrypted
    /// database exists (`underlying` is then ``KeyStoreError/notStored(identifier:store:)``).
    /// The file was not touched and **no new key was made**. `underlying` is what the store
    /// threw (a store's own error type as ``KeyStoreError/failed(location:reason:)``).
    case keyUnavailable(identifier: String, underlying: KeyStoreError)
    /// The key loaded from the ``KeyStore`` does not decrypt the database (another key, or other
    /// cipher settings). The file was not touched.
    case keyRefused(identifier: String, path: String)
    /// A new key could not be stored, so no database was created or encrypted with it.
    /// `underlying` is what the store threw (a store's own error type as
    /// ``KeyStoreError/failed(location:reason:)``), or ``KeyStoreError/notStored(identifier:store:)``
    /// when the store reported a key already stored and then found none.
    case keyNotStored(identifier: String, underlying: KeyStoreError)
    /// The operating system's secure random source failed (`getentropy`).
    case randomSourceFailed(reason: String)
    /// A manager call was made from inside one of the same manager's `read`, `write`,
    /// `transaction` or `withDatabase` closures, where it would wait for that closure to end
    /// (a deadlock) or pull the connection from under it: `call` names the call, `inside` the
    /// closure. Nothing was done. Inside a closure, use the ``Database`` it was given; make the
    /// call after the closure returns.
    case reentrantCall(_ call: String, inside: String)

    /// The ``description``, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { description }

    /// What happened, to which file, and what to do next; never a password or a key.
    public var description: String {
        switch self {
        case .notConfigured:
            return "No database path is set. Set databaseURL on the manager before creating or opening."
        case .invalidPassword(let reason):
            return "The password is not valid: \(reason). Choose another password."
        case .invalidKeyLength(let count):
            return "A raw key must be exactly 32 bytes; this one has \(count). Pass 32 random bytes."
        case .invalidOption(let name, let reason):
            return "The option \(name) is invalid: \(reason). Fix the value in CipherOptions."
        case .unsupportedOption(let name, let requires, let linked):
            return "The option \(name) needs SQLCipher \(requires) or later, but SQLCipher \(linked) is linked "
                + "(it would silently ignore it). Remove the option or link a newer SQLCipher."
        case .sqlcipherNotLinked:
            return "The process is not linked against SQLCipher (PRAGMA cipher_version returned nothing), "
                + "so data would be written unencrypted. Link libsqlcipher instead of libsqlite3."
        case .encryptionNotActive(let path):
            return "The database created at \(path) is not encrypted. Check that SQLCipher, not SQLite, is linked."
        case .alreadyOpen:
            return "A database is already open on this manager. Close it first."
        case .notOpen:
            return "No database is open. Open or create the database first."
        case .fileNotFound(let path):
            return "No database file at \(path). Create it, or check the path."
        case .fileAlreadyExists(let path):
            return "A file already exists at \(path). Open it instead, or choose another path."
        case .isDirectory(let path):
            return "\(path) is a directory, not a database file. Give the path of a file."
        case .parentDirectoryMissing(let path):
            return "The directory that should hold \(path) does not exist. Create the directory first."
        case .invalidPath(let path, let reason):
            return "\(path) cannot be used as a database path: \(reason). Choose another path."
        case .plaintextDatabase(let path):
            return "\(path) is a plaintext (unencrypted) SQLite database. Encrypt it first "
                + "(DatabaseTools.encryptPlaintextDatabase, or `cipherdb encrypt`), or set "
                + "DatabaseConfiguration.adoptsPlaintextDatabase to encrypt it on open."
        case .notPlaintextDatabase(let path):
            return "\(path) is not a plaintext SQLite database (it is encrypted or not a database). "
                + "Open it with its password instead."
        case .incorrectPasswordOrSettings(let path, let keySlotFile?):
            return "Incorrect password for \(path): it matches none of the key slots in \(keySlotFile) "
                + "(the slots hold the key, so cipher settings are not the cause). Try again with the right password; "
                + "if it is lost, open with a recovery key (open(recoveryKey:)) or another slot's password."
        case .incorrectPasswordOrSettings(let path, nil):
            return "Incorrect password for \(path), or the file was written with other cipher settings "
                + "(kdf_iter, page size, HMAC, SQLCipher major version). Try again with the right password and settings."
        case .incorrectKeyOrSettings(let path):
            return "The raw key does not open \(path): it is another key, or the file was written with other cipher "
                + "settings (kdf_iter, page size, HMAC, SQLCipher major version). Check where the key came from "
                + "(the key store, the key's bytes) and the settings."
        case .notADatabase(let path, let reason):
            return "\(path) is not an SQLCipher database: \(reason). Check the path; restore the file from a backup if it should be one."
        case .corrupt(let path, let underlying):
            return "\(path) decrypted but is damaged\(Self.suffix(underlying)). Restore it from a backup."
        case .permissionDenied(let path, let underlying):
            return "Permission denied for \(path)\(Self.suffix(underlying)). Check the file's and directory's permissions."
        case .notWritable(let path, let reason):
            return "\(path) cannot be written: \(reason). Nothing was written; the SQL is not the cause."
        case .diskFull(let path, let underlying):
            return "The disk is full while writing \(path)\(Self.suffix(underlying)). Free some space and try again."
        case .ioError(let path, let underlying):
            return "Input/output error on \(path)\(Self.suffix(underlying)). Check the disk and the file."
        case .busy(let path, let underlying):
            return "\(path) is locked by another connection or process\(Self.suffix(underlying)). Try again once it "
                + "has finished, or give the configuration a longer busyTimeout."
        case .noCachedKey:
            return "No key is cached. Open the database with its password or key first."
        case .schemaVersionTooNew(let found, let supported):
            return "The database has schema version \(found), newer than the \(supported) this app supports. "
                + "Update the app; the file was left untouched."
        case .migrationFailed(let version, let lastGoodVersion, let underlying):
            return "Schema migration to version \(version) failed (\(underlying)); the database stays at version "
                + "\(lastGoodVersion). Fix the migration and open again."
        case .insufficientDiskSpace(let path, let needed, let available):
            return "Not enough free space in \(path): \(needed) bytes needed (about twice the database), "
                + "\(available) available. Nothing was changed. Free some space and try again."
        case .reentrantCall(let call, let inside):
            return "\(call) was called from inside a \(inside) closure of the same DatabaseManager, where it would wait for "
                + "that closure to end or change the connection under it. Nothing was done. Inside the closure use the "
                + "Database it was given; call \(call) after the closure returns."
        case .transactionInProgress:
            return "A transaction is open. Commit or roll it back, then change the key or export the database."
        case .verificationFailed(let path, let reason):
            return "The new copy of \(path) did not verify: \(reason). It was removed and the database "
                + "is unchanged. Run an integrity check on the database, then try again."
        case .recoveryFailed(let path, let reason):
            return "An interrupted key change or encryption of \(path) could not be recovered: \(reason). "
                + "The files were left as they are; move the unexpected file away and open again."
        case .operationInProgress(let path):
            return "Another process or manager is changing the key or encryption of \(path) right now. "
                + "Wait for it to finish, then try again."
        case .keyChanged(let path):
            return "The password of \(path) was changed by another program (or connection) while this one had it open; "
                + "nothing was written with the old key. Open the database again with its new password. (If no program "
                + "changed it, its first page is damaged: verify it, or restore it from a backup.)"
        case .headerSaltUnusable(let path, let saltFile, let problem):
            return Self.headerSaltMessage(path: path, saltFile: saltFile, problem: problem)
        case .keyChangeInterrupted(let path, let opensWith):
            return Self.interruptedKeyChange(path: path, opensWith: opensWith)
        case .openElsewhere(let path, let processID, let processName):
            let process = processID.map { pid in " (process \(pid)" + (processName.map { ", \($0)" } ?? "") + ")" } ?? ""
            return "\(path) is open in another program\(process). Changing its cipher settings or encrypting it writes a "
                + "new file, which replaces the old one only while no other program has it open. Nothing was changed. "
                + "Close the database in that program (or stop it), then run this again."
        case .foreignSidecar(let path, let sidecar):
            return "\(sidecar) does not belong to \(path): replayed on a copy it gives a database that does not open or "
                + "check with this key, while \(path) alone does. Nothing was changed. Move \(sidecar) away and open "
                + "again; if it was the database's own (after a crash), restore the database from a backup."
        case .untrustedFile(let path, let reason):
            return "\(path) was refused and left as it is: \(reason). Nothing was written through it. If you did not "
                + "put it there, someone with access to the directory may have; move it away, then run this again."
        case .sqlite(let error):
            return error.description
        case .keySlots(let error):
            return error.description
        case .keyUnavailable(let identifier, .notStored(_, let store)):
            return "The key '\(identifier)' is unavailable: no key is stored under it in the \(store), but the database "
                + "is encrypted (a new key is never made for an existing database). The database was not touched and no "
                + "new key was made. Restore the key from a backup under this identifier, then open again."
        case .keyUnavailable(let identifier, let underlying):
            return "The key '\(identifier)' is unavailable: \(underlying) The database was not touched and no new key "
                + "was made. Make the key readable (unlock the keyring, fix the key file) or restore it from a backup, then open again."
        case .keyRefused(let identifier, let path):
            return "The key '\(identifier)' does not open \(path) (another key, or other cipher settings). The file was "
                + "not touched. Restore the key that belongs to this database from a backup."
        case .keyNotStored(let identifier, .notStored(_, let store)):
            return "A new key '\(identifier)' could not be stored: the \(store) reported a key already stored under it, "
                + "then found none. No database was created or encrypted; fix the key store and try again."
        case .keyNotStored(let identifier, let underlying):
            return "A new key '\(identifier)' could not be stored: \(underlying) No database was created or encrypted; "
                + "fix the key store and try again."
        case .randomSourceFailed(let reason):
            return "The system's secure random source failed (\(reason)), so no key was generated. Try again."
        }
    }

    private static func interruptedKeyChange(path: String, opensWith: KeyChangeSide?) -> String {
        let start = "A password change of \(path) was interrupted, and the password given does not open it. "
        switch opensWith {
        case .previousKey?:
            return start + "It is the new password of that change, which was rolled back: the database opens with the "
                + "password it had before. Open it with that one (then change it again)."
        case .newKey?:
            return start + "It is the password from before that change, which was committed: the database opens with "
                + "the new password. Open it with that one."
        case nil:
            return start + "The database opens with exactly one of the password it had before and the new one; the one "
                + "given is neither. Open it with one of those two."
        }
    }

    private static func suffix(_ error: SQLiteError?) -> String {
        error.map { " (\($0))" } ?? ""
    }
}

/// Which key of an interrupted key change opens the file (see
/// ``DatabaseManagerError/keyChangeInterrupted(path:opensWith:)``).
public enum KeyChangeSide: Sendable, Hashable {
    /// The key the file had before the change: the change was rolled back.
    case previousKey
    /// The key the change set: the change was committed.
    case newKey
}
