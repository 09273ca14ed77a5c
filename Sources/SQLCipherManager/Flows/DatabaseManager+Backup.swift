import Foundation
import SQLCipherCore
import SQLCipherEngine
import SQLCipherKeys

// MARK: - Backup

extension DatabaseManager {
    /// Writes a verified, encrypted copy of the open database to a new file at `destination`
    /// while the app goes on reading and writing it.
    ///
    /// **The snapshot.** The copy is read on a connection of the backup's own, opened with the
    /// derived key (no PBKDF2), in one read transaction: it holds every transaction committed
    /// before the snapshot began and none after. In WAL mode (``DatabaseConfiguration/journalMode``)
    /// the manager's writer, its readers and other processes go on writing meanwhile. In
    /// rollback-journal mode the snapshot is a SHARED lock: reads go on, but a commit (of this
    /// manager or another program) waits until the copy is written, up to its
    /// ``DatabaseConfiguration/busyTimeout``, then fails with
    /// ``DatabaseManagerError/busy(path:underlying:)`` — back up a large rollback-journal
    /// database when writes can wait, or switch it to WAL.
    ///
    /// **The copy.** The new file `<destination>.scm-backup` (created with `O_EXCL | O_NOFOLLOW`,
    /// readable and writable by its owner only: the source's permission bits masked with `0700`) is attached with `ATTACH DATABASE ? AS …
    /// KEY ?` (path and key bound, never in SQL text), given the cipher settings (`options`, by
    /// default the source's ``DatabaseConfiguration/cipher``), and `SELECT sqlcipher_export(…)`
    /// copies every table, index, view and trigger, then `user_version` and `application_id`;
    /// it is the engine the settings change and ``decrypt(to:progress:)`` use. The copy is then
    /// flushed (`fsync`) and **verified** on a fresh connection with its own key:
    /// `PRAGMA integrity_check` (and `cipher_integrity_check` where the linked SQLCipher has it,
    /// 4.0 and later), its schema, the row count of every table, `user_version` and
    /// `application_id` against those read in the snapshot. Only then is it given its final
    /// name, with `link` (which never overwrites) and a flush of the directory. A WAL source gives
    /// a WAL backup. While it runs, the snapshot and the check each keep a page cache of up to
    /// 1.5 × the file (at most 1/16 of the machine's memory, 32 MiB to 1 GiB), so that each page
    /// is decrypted once rather than once per pass.
    ///
    /// **Crash safety.** Each step is journalled in `<destination>.scm-journal`. A backup
    /// killed or cut by a power loss leaves nothing under `destination`, or the complete
    /// verified backup; never a part of one. What it leaves beside it (`<destination>.scm-backup`,
    /// `.scm-journal`, `.scm-lock`) is settled by the next backup to `destination`, by an open
    /// of `destination`, or by ``DatabaseTools/recoverInterruptedOperation(at:)``: a copy
    /// killed before it was verified is removed; one killed after (journal phase `install`) is
    /// given its final name, so that next backup then finds `destination` there and refuses.
    ///
    /// **Key slots.** A key-slot database (``DatabaseKeySlots/isEnabled``) is backed up as a password (or
    /// raw-key) database: `key` must be ``BackupKey/password(_:)-(String)``,
    /// ``BackupKey/password(_:)-(SecretBytes)``, ``BackupKey/rawKey(_:)`` or ``BackupKey/key(_:)``, and
    /// ``BackupKey/sameAsSource`` is refused with ``DatabaseManagerError/keySlots(_:)`` holding
    /// ``KeySlotError/backupNeedsItsOwnKey(path:)``. The backup is then one file that opens with
    /// one secret: no `.scm-keys` file has to be copied with it, kept in step with the revision
    /// recorded inside it, or restored together with it, and no revoked password or recovery key
    /// of the source opens it. Convert the restored file
    /// with ``DatabaseKeySlots/enable(password:label:progress:)-(String,_,_)`` when it should have slots again.
    ///
    /// - Parameters:
    ///   - destination: the new file; nothing may exist there (nor its `-wal`, `-journal` or
    ///     `.scm-keys`), and its directory must exist.
    ///   - key: how the backup is keyed; by default like the source.
    ///   - options: the backup's cipher settings; `nil` keeps the source's.
    ///   - progress: called on the backup's thread with the fraction done, 0…1: 0 before the
    ///     snapshot is taken, up to 0.9 while the copy grows (its size against the source's,
    ///     `sqlcipher_export` reporting nothing itself), 0.95 once it is verified and flushed,
    ///     1 once it has its final name. It must not use the manager.
    /// - Throws: ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/noCachedKey``,
    ///   ``DatabaseManagerError/fileAlreadyExists(path:)`` when `destination` (or a sidecar of
    ///   it) exists — the source itself too, ``DatabaseManagerError/parentDirectoryMissing(path:)``,
    ///   ``DatabaseManagerError/permissionDenied(path:underlying:)``,
    ///   ``DatabaseManagerError/insufficientDiskSpace(path:needed:available:)``,
    ///   ``DatabaseManagerError/invalidPassword(reason:)``, ``DatabaseManagerError/invalidKeyLength(_:)``,
    ///   ``DatabaseManagerError/invalidOption(name:reason:)``, ``DatabaseManagerError/operationInProgress(path:)``,
    ///   ``DatabaseManagerError/busy(path:underlying:)``, ``DatabaseManagerError/verificationFailed(path:reason:)``,
    ///   ``DatabaseManagerError/keySlots(_:)`` with ``KeySlotError/backupNeedsItsOwnKey(path:)``. Nothing
    ///   is left at `destination` after any of them.
    @available(*, noasync, message: "blocks the calling thread: use try await in an async function or a Task")
    public func backup(
        to destination: URL, key: BackupKey = .sameAsSource, options: CipherOptions? = nil,
        progress: ((Double) -> Void)? = nil
    ) throws {
        try backupFlow(to: destination, key: key, options: options, progress: progress, handle: nil)
    }

    /// ``backup(to:key:options:progress:)-2vlr9`` from async code, on a thread of the manager's own
    /// (never one of the cooperative pool), so the awaiting Task is suspended meanwhile.
    /// Cancelling the Task interrupts the copy (`sqlite3_interrupt`), removes what it wrote and
    /// throws `CancellationError`.
    public func backup(
        to destination: URL, key: BackupKey = .sameAsSource, options: CipherOptions? = nil,
        progress: (@Sendable (Double) -> Void)? = nil
    ) async throws {
        try await run(on: backupExecutor, threads: 1) { handle in
            try self.backupFlow(to: destination, key: key, options: options, progress: progress, handle: handle)
        }
    }

    // MARK: - Flow

    /// Prepares under the manager's lock (the keys, the snapshot's connection), then copies
    /// without it, so that the manager's other calls go on meanwhile.
    private func backupFlow(
        to destination: URL, key: BackupKey, options: CipherOptions?, progress: ((Double) -> Void)?,
        handle: InterruptHandle?
    ) throws {
        let target = destination.path
        let (source, operation) = try locked("backup(to:key:options:progress:)") {
            try backupPlan(target: target, key: key, options: options)
        }
        defer {
            source.keepWALOnClose()
            source.close()
        }
        do {
            if let handle {
                try handle.run(on: source) { try operation.create(from: source, progress: progress) }
            } else {
                try operation.create(from: source, progress: progress)
            }
        } catch {
            if handle?.isCancelled == true { throw CancellationError() }
            throw DatabaseManagerError(diagnosing: error, path: target)
        }
    }

    /// Checks everything that can be checked before a file is written, then opens the
    /// connection the snapshot is read on and describes the export.
    private func backupPlan(target: String, key: BackupKey, options: CipherOptions?) throws -> (Connection, ExportOperation) {
        let db = try requireDatabase()
        let path = db.connection.path
        var backupConfiguration = connectionConfiguration
        if let options { backupConfiguration.cipher = options }
        try backupConfiguration.cipher.validate(for: LinkedLibrary.cipherVersion(of: db.connection))
        let material = try backupKeyMaterial(key, path: path)
        guard let sourceKey = derivedKey?.rawKey ?? cachedKey else { throw DatabaseManagerError.noCachedKey }
        do {
            try InterruptedOperationRecovery.recover(atPath: target)
            try refuseExistingBackupFiles(target)
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: target)
        }
        backupConfiguration.headerSalt = try Self.headerSaltForBackup(at: target, cipher: backupConfiguration.cipher, key: material)
        // A fresh salt, and the key derived for it once: the verification opens it without PBKDF2.
        let (copyKey, _) = DerivedKeys.keyForNewFile(material, cipher: backupConfiguration.cipher, salt: backupConfiguration.headerSalt)
        let operation = ExportOperation(
            .backup, target: target, install: .create, key: copyKey, configuration: backupConfiguration)
        let source = try Unlocking.connect(path: path, mode: .readWrite, key: sourceKey, configuration: connectionConfiguration)
        return (source, operation)
    }

    /// The backup's key before its salt: the source's, or a new password (policy-checked) or raw key.
    private func backupKeyMaterial(_ key: BackupKey, path: String) throws -> SecretBytes {
        switch key.kind {
        case .sameAsSource:
            let store = KeySlotStore(databasePath: path)
            if store.hasCurrent || store.hasNext || store.databaseHasKeySlotSalt {
                throw KeySlotError.backupNeedsItsOwnKey(path: path)
            }
            guard let cachedKey else { throw DatabaseManagerError.noCachedKey }
            return cachedKey
        case .password(let password):
            let typed = password.normalizedPassword()
            try configuration.passwordPolicy.validate(typed)
            return typed
        case .rawKey(let data):
            return try SecretBytes(checkedRawKey: data)
        case .key(let key):
            return key.sqlcipherKey
        }
    }
}

/// A file under the backup's name or one of its sidecars would be taken for part of it
/// (SQLite replays a `-wal` or `-journal` it finds; an open looks for `.scm-keys`).
private func refuseExistingBackupFiles(_ target: String) throws {
    for suffix in ["", "-wal", "-journal", KeySlotStore.suffix] where FileSystem.size(of: target + suffix) != nil {
        throw DatabaseManagerError.fileAlreadyExists(path: target + suffix)
    }
}
