import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - DatabaseTools

/// The functions that need no ``DatabaseManager``, in one place: on a database file named by
/// its URL (inspect it, recover an interrupted operation, encrypt a plaintext database) and on
/// the linked library (SQLCipher's and SQLite's versions, the cipher settings SQLCipher has
/// used). Every one of them takes a URL, never a path string.
///
/// ```swift
/// let info = DatabaseTools.inspectFile(at: url)
/// if info.kind == .plaintextSQLite { try DatabaseTools.encryptPlaintextDatabase(at: url, password: password) }
/// ```
public enum DatabaseTools {
    // MARK: - The linked library

    /// The linked SQLCipher's version (`PRAGMA cipher_version` on an in-memory connection), or
    /// `nil` when the process is not linked against SQLCipher. ``DatabaseManager/cipherInfo``
    /// reads the same pragma on the open database.
    public static var linkedSQLCipherVersion: SQLCipherVersion? { LinkedLibrary.cipherVersion }

    /// The linked SQLite's version, `sqlite_version()` on an in-memory connection (for example
    /// `3.15.2`), or `nil` when it cannot be read.
    public static var linkedSQLiteVersion: String? { LinkedLibrary.sqliteVersion }

    /// The known setting sets the linked SQLCipher can read, in the order
    /// ``DatabaseManager/diagnoseCipherSettings(password:alsoTrying:)-(String,_)`` tries them (empty when SQLCipher is not
    /// linked): SQLCipher 3.x tries its defaults (`PRAGMA kdf_iter = 64000`,
    /// `cipher_page_size = 1024`, `cipher_use_hmac = ON`), the SQLCipher 2 format
    /// (`kdf_iter = 4000`) and the SQLCipher 1 format (`kdf_iter = 4000`,
    /// `cipher_use_hmac = OFF`); SQLCipher 4.x its defaults, `cipher_compatibility` 3, 2, 1,
    /// and its own format with `kdf_iter = 64000` and `4000` (what a `PRAGMA kdf_iter` meant
    /// for SQLCipher 3 or 2 writes on 4.x). Then each of them with 1024-, 4096-, 8192- and 16384-byte pages (`cipher_page_size`).
    public static var knownCipherSettings: [CipherSettingsCandidate] {
        LinkedLibrary.cipherVersion.map(CipherSettingsCandidate.known(for:)) ?? []
    }

    // MARK: - Files

    /// Inspects the file at `url` without a key and without SQLite: see ``DatabaseFileInfo``.
    /// A file URL made from a relative path (`URL(fileURLWithPath: "notes.db")`) is inspected
    /// and reported as given, relative to the current directory, when that is still its base.
    public static func inspectFile(at url: URL) -> DatabaseFileInfo {
        DatabaseFileInfo(path: pathAsGiven(url))
    }

    /// `url`'s relative path when its base is the current directory, otherwise its absolute path.
    static func pathAsGiven(_ url: URL) -> String {
        guard let base = url.baseURL, base.path == FileManager.default.currentDirectoryPath else { return url.path }
        return url.relativePath
    }

    /// Removes the database's `-journal` when SQLite would never play it back: empty, or its
    /// header never written (its first 12 bytes zero, as SQLite leaves it until the journaled
    /// pages are synced, before it changes the database; a crash then leaves the database as it
    /// was and this journal beside it, until the next write). Removed only while this call holds
    /// SQLite's RESERVED lock on the database (no connection is writing) and no process has the
    /// journal open, and only where that can be seen (`/proc`, Linux). A journal with a written
    /// header (hot) is left to SQLite, which rolls it back when the database is next opened.
    ///
    /// - Returns: `true` when a journal was removed; `false` when there was none, or it was not
    ///   provably inert, or the lock was held by another connection.
    @discardableResult
    public static func removeInertJournal(at url: URL) -> Bool {
        InertJournal.remove(atPath: FileSystem.resolvedPath(url.path))
    }

    /// Finishes or rolls back a rekey, encrypt, decrypt or backup that was interrupted (process
    /// killed, power lost) on the file at `url`, and removes its leftovers (`<file>.scm-journal`,
    /// `<file>.scm-rekey`, `.scm-encrypt`, `.scm-decrypt`, `.scm-backup` and their `-journal`/`-wal`/`-shm`,
    /// `<file>.scm-lock`), and the marker of an interrupted key change in place
    /// (`<file>.scm-rekeying`: SQLite's journal or WAL settles that change itself), and then a
    /// `-journal` SQLite would never play back (``removeInertJournal(at:)``; a hot one is left
    /// to SQLite). An operation that is still running in another process or manager (it holds
    /// its `flock`) is left alone.
    ///
    /// Every create and open runs this first, so apps need to call it only for files they never
    /// open through a manager, such as a plaintext copy written by ``DatabaseManager/decrypt(to:progress:)``.
    /// An operation interrupted before its copy was verified is rolled back (the file keeps its
    /// old key, or stays plaintext); one interrupted after that is completed (the file has the
    /// new key). Try both keys after a crash during a rekey: exactly one opens the file.
    ///
    /// - Returns: what was done; ``RecoveryOutcome/nothingToRecover`` when there was no journal.
    /// - Throws: ``DatabaseManagerError/operationInProgress(path:)`` while another process or
    ///   manager runs an operation on the file, ``DatabaseManagerError/recoveryFailed(path:reason:)``
    ///   for a journal this code did not write, or the file-system error that stopped the
    ///   recovery (the files are then left as they were, and the next call tries again).
    @discardableResult
    public static func recoverInterruptedOperation(at url: URL) throws -> RecoveryOutcome {
        // A key change in place needs nothing of ours (SQLite's journal or WAL settles it): only its marker goes.
        InPlaceRekeyMarker.takeStale(for: url.path)
        let outcome = try InterruptedOperationRecovery.recover(atPath: url.path)
        removeInertJournal(at: url)
        return outcome
    }

    // MARK: - Encrypting a plaintext database

    /// Encrypts an existing plaintext SQLite database with a password, in place or into a new file.
    ///
    /// The SQLCipher way (`sqlite3_key`/`PRAGMA rekey` cannot encrypt a plaintext file): the
    /// source is opened without a key, a new file is attached with `ATTACH DATABASE ? AS … KEY ?`
    /// (path and password bound, never in SQL text), the cipher pragmas of
    /// `configuration.cipher` are applied to it, and `SELECT sqlcipher_export(…)` copies every
    /// table, index, view and trigger in one transaction; `user_version` and `application_id`
    /// (which the export skips) are copied too. The copy is then opened on a fresh connection
    /// with the password and checked (`PRAGMA integrity_check`, schema, row count of every table).
    ///
    /// - In place (`destination == nil`): only while no other program (and no other connection
    ///   of this process) has the file open — else ``DatabaseManagerError/openElsewhere(path:processID:processName:)``
    ///   or ``DatabaseManagerError/busy(path:underlying:)``, nothing changed. The source's `-wal` is
    ///   checkpointed into it and its `-wal`, `-shm` and `-journal` are removed, durably, before
    ///   the copy replaces it with one `rename`: no plaintext sidecar is ever left beside the
    ///   encrypted file. A crash or power loss at any moment leaves either the plaintext file or
    ///   the encrypted one, with every row (the next open, or ``recoverInterruptedOperation(at:)``,
    ///   cleans up).
    /// - To `destination`: the source is not modified; the destination appears only once
    ///   complete (`link`, which never overwrites).
    ///
    /// - Parameters:
    ///   - source: the plaintext SQLite database.
    ///   - destination: `nil` to encrypt in place, or a path where nothing exists yet.
    ///   - password: the new password; it must satisfy `configuration.passwordPolicy`.
    ///   - configuration: the cipher options of the encrypted file, and its password policy.
    ///   - progress: called on this thread with the fraction done, 0…1.
    /// - Throws: ``DatabaseManagerError/notPlaintextDatabase(path:)`` when the source is encrypted
    ///   or not a database, ``DatabaseManagerError/fileNotFound(path:)``,
    ///   ``DatabaseManagerError/fileAlreadyExists(path:)`` when `destination` exists,
    ///   ``DatabaseManagerError/invalidPassword(reason:)``,
    ///   ``DatabaseManagerError/permissionDenied(path:underlying:)`` for a read-only file or directory,
    ///   ``DatabaseManagerError/insufficientDiskSpace(path:needed:available:)``,
    ///   ``DatabaseManagerError/verificationFailed(path:reason:)``. On any error the source is
    ///   unchanged and no destination is left.
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, password: String,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        try configuration.passwordPolicy.validate(password)
        try EncryptFlow(
            source: source.path, destination: destination?.path, key: SecretBytes(password: password), configuration: configuration
        ).run(progress: progress)
    }

    /// Encrypts an existing plaintext SQLite database with a raw 32-byte key (SQLCipher's
    /// `x'…'` key form, bound to `ATTACH … KEY ?`); otherwise as
    /// ``encryptPlaintextDatabase(at:to:password:configuration:progress:)-(_,_,String,_,_)``.
    ///
    /// - Throws: ``DatabaseManagerError/invalidKeyLength(_:)`` unless the key is 32 bytes, and the
    ///   errors of the password variant.
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, rawKey: Data,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        try EncryptFlow(
            source: source.path, destination: destination?.path, key: SecretBytes(checkedRawKey: rawKey), configuration: configuration
        ).run(progress: progress)
    }

    /// Encrypts a plaintext SQLite database with `key`, in place or into `destination`
    /// (`sqlcipher_export` into a file attached with `ATTACH … KEY ?`); otherwise as
    /// ``encryptPlaintextDatabase(at:to:password:configuration:progress:)-(_,_,String,_,_)``.
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, key: DatabaseKey,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        try EncryptFlow(
            source: source.path, destination: destination?.path, key: key.sqlcipherKey, configuration: configuration
        ).run(progress: progress)
    }
}
