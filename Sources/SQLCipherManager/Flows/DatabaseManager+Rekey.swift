import Foundation

// MARK: - Rekey

extension DatabaseManager {
    /// Changes the open database's password, and optionally its cipher settings, crash-safely
    /// (the original's `rekeyDatabaseWithOptions:…`, hardened).
    ///
    /// Export-based, as Zetetic recommends instead of `PRAGMA rekey`: a new file `<db>.scm-rekey` is attached
    /// with `ATTACH DATABASE ? AS … KEY ?` (path and key bound, never in SQL text), `options`
    /// (or the current ``DatabaseConfiguration/cipher``) are applied to it (`PRAGMA ….kdf_iter`,
    /// `cipher_page_size`, `cipher_use_hmac`), `SELECT sqlcipher_export(…)` copies everything in
    /// one transaction, and `user_version` and `application_id` are copied by hand. The new file
    /// is opened on a fresh connection with the new key and checked (`PRAGMA integrity_check`,
    /// schema, row count of every table), then swapped in with one `rename` (file and folder
    /// flushed with `fsync`) and reopened; the new key is cached and, with `options`, the
    /// configuration's cipher options become `options`. The new file keeps the old one's
    /// permissions (and, as root, its owner).
    ///
    /// Other connections may stay open. From the start of the export until the new file is in
    /// place no other connection, in this process or another, can commit to the file: a
    /// connection of the rekey's own holds its write lock (`BEGIN IMMEDIATE`: RESERVED, or the
    /// WAL write lock, waiting up to ``DatabaseConfiguration/busyTimeout`` for a writer that is
    /// mid-transaction; a writer that cannot get it meanwhile gets `SQLITE_BUSY`). Every commit
    /// acknowledged before is in the new file. Other managers of this process on the same file
    /// (siblings) are paused (a call of theirs waits) and then reopened with the new key; their
    /// delegates hear `didRekeyDatabase`. Connections of other programs left on the old file
    /// can no longer use it (the old file is retired: their next statement fails, and a
    /// manager reports ``DatabaseManagerError/databaseReplaced(path:)``). A WAL database that
    /// another program has open is not rekeyed: ``DatabaseManagerError/openElsewhere(path:processID:)``.
    ///
    /// Events: `willRekeyDatabase`, then `didRekeyDatabase` or `didEncounterRekeyError`. After a
    /// failure the database is intact, still opens with the old password, and is open again.
    /// A crash at any moment leaves a file that opens with exactly one of the old and the new
    /// password, every row present; the next open finishes or rolls back (see
    /// ``DatabaseTools/recoverInterruptedOperation(at:)``).
    ///
    /// - Parameters:
    ///   - password: the new password; it must satisfy the ``PasswordPolicy``.
    ///   - options: other cipher settings for the new file (`nil` keeps the current ones).
    ///   - progress: called on this thread with the fraction done, 0…1; it must not use the manager.
    /// - Throws: before anything starts (no event): ``DatabaseManagerError/notOpen``,
    ///   ``DatabaseManagerError/invalidPassword(reason:)``, ``DatabaseManagerError/invalidOption(name:reason:)``,
    ///   ``DatabaseManagerError/unsupportedOption(name:requires:linked:)``,
    ///   ``DatabaseManagerError/transactionInProgress``. After `willRekeyDatabase`:
    ///   ``DatabaseManagerError/permissionDenied(path:underlying:)`` (read-only file or folder),
    ///   ``DatabaseManagerError/insufficientDiskSpace(path:needed:available:)``,
    ///   ``DatabaseManagerError/verificationFailed(path:reason:)``, I/O errors.
    public func rekey(password: String, options: CipherOptions? = nil, progress: ((Double) -> Void)? = nil) throws {
        try locked {
            try configuration.passwordPolicy.validate(password)
            try refuseKeySlotRekey()
            try rekeyFlow(key: SecretBytes(password: password), options: options, progress: progress)
        }
    }

    /// Changes the open database's key to a raw 32-byte key (SQLCipher's `x'…'` form, bound to
    /// `ATTACH … KEY ?`); otherwise as ``rekey(password:options:progress:)``.
    ///
    /// - Throws: ``DatabaseManagerError/invalidKeyLength(_:)`` unless the key is 32 bytes, and the
    ///   errors of ``rekey(password:options:progress:)``.
    public func rekey(rawKey: Data, options: CipherOptions? = nil, progress: ((Double) -> Void)? = nil) throws {
        try locked {
            try refuseKeySlotRekey()
            try rekeyFlow(key: Self.rawKeyMaterial(rawKey), options: options, progress: progress)
        }
    }

    // MARK: - Flow

    func rekeyFlow(key: SecretBytes, options: CipherOptions?, progress: ((Double) -> Void)?) throws {
        let db = try requireDatabase()
        // The open file, even if databaseURL was changed since (that takes effect at the next open).
        let path = db.connection.path
        var newConfiguration = configuration
        if let options { newConfiguration.cipher = options }
        try newConfiguration.cipher.validate(for: Self.linkedVersion(of: db.connection))
        guard !db.isInTransaction else { throw DatabaseManagerError.transactionInProgress }
        guard let oldKey = cachedKey else { throw DatabaseManagerError.noCachedKey }
        notify(.willRekey)
        var siblings: [DatabaseManager] = []
        // One PBKDF2 for the whole rekey: the copy gets a fresh salt and the key derived for it;
        // the write lock's connection uses the current file's derived key.
        let (newKey, newDerived) = Self.keyForNewFile(key, cipher: newConfiguration.cipher)
        let lockKey = derivedKey?.rawKey ?? oldKey
        do {
            siblings = try pauseSiblings(of: db.connection)
            let operation = Self.exportOperation(
                .rekey, target: path, install: .replace, key: newKey, configuration: newConfiguration)
            let oldConfiguration = configuration
            try operation.run(
                source: db.connection,
                lockConnection: { try Self.connect(path: path, mode: .readWrite, key: lockKey, configuration: oldConfiguration) },
                releaseSource: { closeConnection() }, progress: progress)
        } catch {
            let error = DatabaseManagerError(diagnosing: error, path: path)
            reconnectIfClosed(path: path)
            restoreSiblings(siblings)
            notify(.rekeyFailed(error))
            throw error
        }
        configuration = newConfiguration
        cachedKey = key
        derivedKey = newDerived
        closeConnection()
        reopenSiblings(siblings, key: key, derived: newDerived, cipher: newConfiguration.cipher)
        do {
            database = Database(connection: try Self.connect(path: path, mode: .readWrite, key: newKey, configuration: newConfiguration))
            configureReaders()
        } catch {
            let error = DatabaseManagerError(diagnosing: error, path: path)
            notify(.databaseError(error))
            throw error
        }
        notify(.didRekey)
    }

    /// After a failed rekey that had closed the connection: opens it again with the cached (old)
    /// key and configuration, without events or migration. Stays closed if that fails.
    private func reconnectIfClosed(path: String) {
        guard database == nil, let key = derivedKey?.rawKey ?? cachedKey else { return }
        database = (try? Self.connect(path: path, mode: .readWrite, key: key, configuration: configuration)).map(Database.init)
        configureReaders()
    }
}
