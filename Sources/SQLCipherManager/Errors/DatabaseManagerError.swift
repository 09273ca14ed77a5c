import Foundation
import SQLCipherCore

// MARK: - DatabaseManagerError

/// Why a ``DatabaseManager`` flow (create, open, rekey, migrate…) failed.
///
/// Every error says what happened to which file and what to do next (``description``). None of
/// them ever carries a password or a key. When one wraps a ``SQLiteError``, the C library's code
/// and message are kept for diagnosis (``sqliteError``).
///
/// A struct rather than an enum, so that a later version can add a failure without breaking an
/// app's `switch`: match on its ``code`` (a ``Code``, with one static member per failure) and
/// read the details an app acts on from its properties (``path``, ``reason``, ``underlying``…).
///
/// ```swift
/// do {
///     try manager.open(password: password)
/// } catch DatabaseManagerError.Code.incorrectPasswordOrSettings {
///     // ask for the password again
/// } catch let error as DatabaseManagerError {
///     switch error.code {
///     case .fileNotFound: offerToCreate()
///     case .busy: retryLater()
///     default: show(error.description)
///     }
/// }
/// ```
///
/// Errors compare equal when they are the same failure with the same details, so a test can
/// expect one: `#expect(throws: DatabaseManagerError.notOpen) { … }`.
public struct DatabaseManagerError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The failure and its details, one case per failure; the library switches over it, an app
    /// over ``code``.
    package let kind: Kind

    /// The error of `kind`.
    init(kind: Kind) {
        self.kind = kind
    }

    /// The ``description``, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { description }

    /// What happened, to which file, and what to do next; never a password or a key.
    public var description: String {
        switch kind {
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
        case .keyUnavailable(let identifier, let underlying):
            return Self.keyUnavailableMessage(identifier: identifier, underlying: underlying)
        case .keyRefused(let identifier, let path):
            return "The key '\(identifier)' does not open \(path) (another key, or other cipher settings). The file was "
                + "not touched. Restore the key that belongs to this database from a backup."
        case .keyNotStored(let identifier, let underlying):
            return Self.keyNotStoredMessage(identifier: identifier, underlying: underlying)
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
