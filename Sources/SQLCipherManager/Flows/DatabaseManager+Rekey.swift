import Foundation
import SQLCipherCore
import SQLCipherQuery

// MARK: - Rekey

extension DatabaseManager {
    /// Changes the open database's password or key, and optionally its cipher settings,
    /// crash-safely (the original's `rekeyDatabaseWithOptions:…`, hardened).
    ///
    /// **The key only** (`options` `nil` or equal to the current
    /// ``DatabaseConfiguration/cipher``): re-keyed in place, in one SQLite write transaction on
    /// the writer — `BEGIN IMMEDIATE` (waiting up to ``DatabaseConfiguration/busyTimeout`` for
    /// another writer, then ``DatabaseManagerError/busy(path:underlying:)``), `sqlite3_rekey`
    /// with the new key derived once for the file's salt (given as bytes, never in SQL), and
    /// the commit, with `synchronous = FULL` for it (the connection's own setting is restored
    /// after), so it is on disk before this returns. No copy, no rename: SQLite's rollback
    /// journal (written under the old key) or WAL is the crash safety. The outcome is checked
    /// on a fresh connection with the new key (SQLCipher 3.4.1's `sqlite3_rekey` does not report
    /// a failed page loop or commit); after a failure the writer is closed and opened again
    /// with the old key. While it runs, `<db>.scm-rekeying` (no key in it) lets an open that
    /// fails after a crash say which password opens the file
    /// (``DatabaseManagerError/keyChangeInterrupted(path:opensWith:)``).
    ///
    /// Other connections may stay open, in this process or another. The reader pool's
    /// connections are closed first (running reads end; later ones wait) and opened again with
    /// the new key; other managers of this process on the same file (siblings) are paused (a
    /// call of theirs waits), then opened again with the new key, and hear `didRekeyDatabase`.
    /// A connection of another program still on the old key fails its next statement
    /// (`SQLITE_NOTADB`, nothing written; a manager reports
    /// ``DatabaseManagerError/keyChanged(path:)``); every commit it had acknowledged before is
    /// in the file.
    ///
    /// **New settings** (`options` that differ): export-based, as Zetetic recommends: a new
    /// file `<db>.scm-rekey` is attached with `ATTACH DATABASE ? AS … KEY ?` (path and key
    /// bound), `options` applied to it (`PRAGMA ….kdf_iter`, `cipher_page_size`,
    /// `cipher_use_hmac`), `SELECT sqlcipher_export(…)` copies everything in one transaction,
    /// `user_version` and `application_id` are copied by hand, the copy is checked on a fresh
    /// connection (`PRAGMA integrity_check`, schema, row counts) and swapped in with one
    /// `rename`; the configuration's cipher options become `options`. It keeps the old file's
    /// permissions (and, as root, its owner). It runs only while no other program has the file
    /// open: from the start of the export until the install a connection of the rekey's own
    /// holds the file's EXCLUSIVE lock, and a database that another program has open is refused
    /// with ``DatabaseManagerError/openElsewhere(path:processID:processName:)``, nothing changed.
    ///
    /// Events: `willRekey` (before the work, outside the lock), then `didRekey` or `didFailToRekey`. After a
    /// failure the database is intact, still opens with the old password, and is open again.
    /// A crash at any moment leaves a file that opens with exactly one of the old and the new
    /// password, every committed row present.
    ///
    /// - Parameters:
    ///   - credential: the new password (it must satisfy the ``PasswordPolicy``) or raw key (32
    ///     bytes: given to `sqlite3_rekey` in place, or bound to `ATTACH … KEY ?` with new `options`).
    ///   - options: other cipher settings for the new file (`nil` keeps the current ones, in place).
    ///   - progress: called on this thread with the fraction done, 0…1 (in place: 0, then 1);
    ///     it must not use the manager.
    /// - Throws: before anything starts (no event): ``DatabaseManagerError/notOpen``,
    ///   ``DatabaseManagerError/invalidPassword(reason:)``, ``DatabaseManagerError/invalidKeyLength(_:)``,
    ///   ``DatabaseManagerError/invalidOption(name:reason:)``,
    ///   ``DatabaseManagerError/unsupportedOption(name:requires:linked:)``,
    ///   ``DatabaseManagerError/transactionInProgress``. After `willRekey`:
    ///   ``DatabaseManagerError/busy(path:underlying:)`` (another writer kept the write lock),
    ///   ``DatabaseManagerError/permissionDenied(path:underlying:)`` (read-only file or directory),
    ///   ``DatabaseManagerError/insufficientDiskSpace(path:needed:available:)`` (the journal, WAL
    ///   or copy needs about the file's size), ``DatabaseManagerError/diskFull(path:underlying:)``,
    ///   ``DatabaseManagerError/operationInProgress(path:)``,
    ///   ``DatabaseManagerError/verificationFailed(path:reason:)``, I/O errors.
    public func rekey(to credential: DatabaseCredential, options: CipherOptions? = nil, progress: ((Double) -> Void)? = nil) throws {
        try announcing(failed: { .didFailToRekey($0) }) {
            let key: SecretBytes
            switch credential.kind {
            case .password(let password):
                try configuration.passwordPolicy.validate(password)
                try refuseKeySlotRekey()
                key = SecretBytes(password: password)
            case .passwordBytes(let password):
                let typed = password.normalizedPassword()
                try configuration.passwordPolicy.validate(typed)
                try refuseKeySlotRekey()
                key = typed
            case .rawKey(let rawKey):
                try refuseKeySlotRekey()
                key = try SecretBytes(checkedRawKey: rawKey)
            case .key(let databaseKey):
                try refuseKeySlotRekey()
                key = databaseKey.sqlcipherKey
            }
            try rekeyFlow(key: key, options: options, progress: progress)
        }
    }

    // MARK: - Flow

    func rekeyFlow(key: SecretBytes, options: CipherOptions?, progress: ((Double) -> Void)?) throws {
        let db = try requireDatabase()
        try (options ?? connectionConfiguration.cipher).validate(for: LinkedLibrary.cipherVersion(of: db.connection))
        guard !db.isInTransaction else { throw DatabaseManagerError.transactionInProgress }
        guard cachedKey != nil else { throw DatabaseManagerError.noCachedKey }
        try announce(.willRekey)
        // Only a change of settings (or of the salt) needs a new file.
        if options == nil || options == connectionConfiguration.cipher, let keyed = inPlaceKey(for: key, path: db.connection.path) {
            return try inPlaceRekeyFlow(key: key, keyed: keyed, progress: progress)
        }
        try replaceThroughExport(
            .rekey, key: key, cipher: options, progress: progress, failed: { .didFailToRekey($0) }, siblingsHear: .didRekey)
        notify(.didRekey)
    }

    /// The export-based replace of the open file (a rekey with new settings, a format upgrade):
    /// a copy keyed with `key` (derived once, for the copy's fresh salt) and written with
    /// `cipher` (`nil`: the file's own), verified, installed with one `rename` while this
    /// connection holds the file for itself; then the configuration's cipher options become
    /// `cipher` (the settings found for the old file are dropped) and the writer, readers and
    /// siblings (which hear `siblingsHear`) are opened again on the new file. A failure before the install reopens the old file, tells
    /// the delegate `failed(error)` and throws; a failure to reopen after it is `didFail`.
    func replaceThroughExport(
        _ kind: ExportOperation.Kind, key: SecretBytes, cipher: CipherOptions?, progress: ((Double) -> Void)?,
        failed: (DatabaseManagerError) -> DatabaseEvent, siblingsHear: DatabaseEvent
    ) throws {
        let db = try requireDatabase()
        // The open file, even if databaseURL was changed since (that takes effect at the next open).
        let path = db.connection.path
        let oldConfiguration = connectionConfiguration
        var newConfiguration = oldConfiguration
        if let cipher { newConfiguration.cipher = cipher }
        guard let oldKey = cachedKey else { throw DatabaseManagerError.noCachedKey }
        var siblings: [DatabaseManager] = []
        newConfiguration.headerSalt = try Self.headerSaltForCopy(of: path, cipher: newConfiguration.cipher, key: key)
        // One PBKDF2 for the whole change: the copy gets a fresh salt (the kept one for a
        // plaintext header) and the key derived for it; the write lock's connection uses the
        // current file's derived key.
        let (newKey, newDerived) = DerivedKeys.keyForNewFile(key, cipher: newConfiguration.cipher, salt: newConfiguration.headerSalt)
        let lockKey = derivedKey?.rawKey ?? oldKey
        do {
            siblings = try pauseSiblings(of: db.connection)
            let operation = ExportOperation(kind, target: path, install: .replace, key: newKey, configuration: newConfiguration)
            try operation.replace(
                releaseSource: { closeConnection() },
                openSource: { try Unlocking.connect(path: path, mode: .readWrite, key: lockKey, configuration: oldConfiguration) },
                progress: progress)
        } catch {
            let error = DatabaseManagerError(diagnosing: error, path: path)
            Self.settleHeaderSalt(of: path)
            reconnectAfterFailedRekey(path: path)
            restoreSiblings(siblings)
            notify(failed(error))
            throw error
        }
        if let cipher {
            configuration.cipher = cipher
            foundCipher = nil
        }
        Self.settleHeaderSalt(of: path)
        cachedKey = key
        derivedKey = newDerived
        closeConnection()
        reopenSiblings(siblings, key: key, derived: newDerived, cipher: cipher, event: siblingsHear)
        do {
            database = Database(
                connection: try Unlocking.connect(path: path, mode: .readWrite, key: newKey, configuration: newConfiguration))
            configureReaders()
        } catch {
            let error = DatabaseManagerError(diagnosing: error, path: path)
            notify(.didFail(error))
            throw error
        }
    }

    /// After a failed rekey (in place or through an export) that closed the writer: opens it
    /// again with the cached (old) key and configuration, without events or migration, and sets
    /// the readers up for it. Stays closed if that fails.
    func reconnectAfterFailedRekey(path: String) {
        if database == nil, let key = derivedKey?.rawKey ?? cachedKey {
            database = (try? Unlocking.connect(path: path, mode: .readWrite, key: key, configuration: connectionConfiguration))
                .map(Database.init)
        }
        configureReaders()
    }
}
