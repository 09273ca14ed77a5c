import Foundation
import SQLCipherCore
import SQLCipherKeys
import SQLCipherQuery

// MARK: - Create and open

extension DatabaseManager {
    /// Creates a new encrypted database keyed with `password` and opens it:
    /// ``create(_:keySlots:label:)`` with ``DatabaseCredential/password(_:)-(String)``.
    ///
    /// - Throws: ``DatabaseManagerError/fileAlreadyExists(path:)`` when a file is there (it is
    ///   never overwritten), ``DatabaseManagerError/invalidPassword(reason:)``, and the other
    ///   ``DatabaseManagerError`` cases.
    public func create(password: String) throws {
        try create(.password(password))
    }

    /// Creates a new encrypted database keyed with `credential` and opens it.
    ///
    /// A password is checked against the ``PasswordPolicy``, normalised to NFC and given to
    /// SQLCipher as bytes (`sqlite3_key`); a raw key is used as the AES key without PBKDF2
    /// (SQLCipher's `x'…'` key form, given through `sqlite3_key`). The file is built beside the
    /// target and linked into place only once it is complete and its header is verified to be
    /// encrypted, so a crash never leaves a half-made database at the path. Fires
    /// `didCreateDatabase`, then runs the ``schemaMigrator``.
    ///
    /// With `keySlots`, the database uses key slots, with one password slot labelled `label`:
    /// it is keyed with a random 256-bit data key in SQLCipher's raw form (`x'<key><salt>'`
    /// through `sqlite3_key`: no PBKDF2), and `<db>.scm-keys` holds that key sealed by the
    /// password (Argon2id, calibrated by ``DatabaseConfiguration/keySlots``). The slot file is
    /// written first as `<db>.scm-keys.next` and becomes `<db>.scm-keys` once the database
    /// exists, so a crash leaves either no database or a complete pair. Afterwards
    /// ``open(password:)`` works as for any database; its slots are ``keySlots``. Without
    /// `keySlots`, `label` is not used.
    ///
    /// - Throws: ``DatabaseManagerError/fileAlreadyExists(path:)`` when a file (or, with
    ///   `keySlots`, the slot file) is there (it is never overwritten),
    ///   ``DatabaseManagerError/invalidPassword(reason:)``, ``DatabaseManagerError/invalidKeyLength(_:)``
    ///   unless a raw key is 32 bytes, ``DatabaseManagerError/invalidOption(name:reason:)`` for
    ///   `keySlots` with a raw key (add a raw-key slot with ``DatabaseKeySlots/add(rawKey:label:)``
    ///   instead), ``DatabaseManagerError/keySlots(_:)`` with ``KeySlotError/weakKeyDerivation(_:minimum:)``,
    ///   and the other ``DatabaseManagerError`` cases.
    public func create(_ credential: DatabaseCredential, keySlots: Bool = false, label: String = "password") throws {
        if keySlots { return try createWithKeySlotsFlow(password: credential.keySlotPassword(), label: label) }
        try locked {
            switch credential.kind {
            case .password(let password):
                try configuration.passwordPolicy.validate(password)
                try openFlow(key: SecretBytes(password: password), creating: true)
            case .passwordBytes(let password):
                let typed = password.normalizedPassword()
                try configuration.passwordPolicy.validate(typed)
                try openFlow(key: typed, creating: true)
            case .rawKey(let rawKey):
                try openFlow(key: SecretBytes(checkedRawKey: rawKey), creating: true)
            case .key(let key):
                try openFlow(key: key.sqlcipherKey, creating: true)
            }
        }
    }

    /// Opens an existing encrypted database with `password`: ``open(_:)`` with
    /// ``DatabaseCredential/password(_:)-(String)``. Never creates a file.
    ///
    /// - Throws: ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)`` for a wrong
    ///   password, and the other errors of ``open(_:)``.
    public func open(password: String) throws {
        try open(.password(password))
    }

    /// Opens an existing encrypted database with `credential`. Never creates a file.
    ///
    /// Fires `didOpenDatabase`, then runs the ``schemaMigrator``. A wrong password or key leaves
    /// the manager closed and the file untouched. The ``PasswordPolicy`` is not applied: a
    /// password the policy would reject today may still be the right one for a file created
    /// under an older policy. An empty password is a wrong one, reported without being tried
    /// (SQLCipher reads an empty key as "no encryption"). The policy is applied when the open
    /// encrypts a plaintext file (``DatabaseConfiguration/adoptsPlaintextDatabase``). On a
    /// key-slot database a password (or a recovery key typed as one) and a raw key open through
    /// the slot that accepts them.
    ///
    /// With SQLCipher 4 linked and ``DatabaseConfiguration/cipher`` left at the defaults, a file
    /// in SQLCipher 3's format opens too (one more key derivation; ``fileFormat`` and
    /// `didFindOlderFormat` say so, ``upgradeFormat(progress:)`` converts it).
    ///
    /// - Throws: ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)`` for a wrong
    ///   password or key, ``DatabaseManagerError/invalidKeyLength(_:)`` unless a raw key is 32 bytes,
    ///   ``DatabaseManagerError/fileNotFound(path:)``, ``DatabaseManagerError/plaintextDatabase(path:)``,
    ///   ``DatabaseManagerError/corrupt(path:underlying:)``…
    public func open(_ credential: DatabaseCredential) throws {
        try locked {
            switch credential.kind {
            case .password(let password):
                if password.isEmpty { try refuseEmptyPassword() }
                if let path = databasePath, willAdoptPlaintextDatabase(path: path) {
                    try configuration.passwordPolicy.validate(password)
                }
                let slotKey = try keySlotKey(UnlockSecret.typed(password), path: requirePath(), fallsBack: false)
                let typed = SecretBytes(password: password)
                try openFlow(key: slotKey ?? typed, creating: false, slotPassword: slotKey == nil ? nil : typed)
            case .passwordBytes(let password):
                try openFlow(passwordBytes: password)
            case .rawKey(let rawKey):
                let direct = try SecretBytes(checkedRawKey: rawKey)
                let slotKey = try keySlotKey([.rawKey(SecretBytes(rawKey))], path: requirePath(), fallsBack: true)
                try openFlow(key: slotKey ?? direct, creating: false)
            case .key(let key):
                try openFlow(key: keySlotKey(for: key, path: requirePath()) ?? key.sqlcipherKey, creating: false)
            }
        }
    }

    /// Opens the database with the key cached by the last successful create, open or rekey
    /// (the original's `openDatabaseWithCachedPassword`): after `close(forgettingKey: false)`,
    /// which keeps it, not after ``close(forgettingKey:)`` with its default, which forgets it.
    ///
    /// - Throws: ``DatabaseManagerError/noCachedKey`` when no key is cached, and the errors of
    ///   ``open(password:)``.
    public func openWithCachedKey() throws {
        try locked {
            guard let key = cachedKey else { throw DatabaseManagerError.noCachedKey }
            try openFlow(key: key, creating: false)
        }
    }

    /// Closes the database (``close(forgettingKey:)``, if open) and opens it again with the cached key (the
    /// original's `reopenDatabase:`): the events are `didCloseDatabase`, then `didOpenDatabase`.
    ///
    /// The new connection is made before the old ones close (their close is announced then), so
    /// on a WAL database the `-wal` and `-shm` are kept rather than settled, deleted and made
    /// again. If the open fails, the old connections are closed all the same.
    public func reopen() throws {
        try locked {
            guard let key = cachedKey else { throw DatabaseManagerError.noCachedKey }
            // The old connections stay open until the new writer is (RetiringConnections).
            try openFlow(key: key, creating: false, retiring: detachConnections())
        }
    }

    // MARK: - Flow

    /// `open(password: "")`: what the file's state says (missing, plaintext…), else the wrong
    /// password (naming the slot file of a key-slot database); the empty key is never tried.
    func refuseEmptyPassword() throws {
        let path = try requirePath()
        if let fileError = DatabaseManagerError(problemBeforeUnlockAt: path) { throw fileError }
        let store = KeySlotStore(databasePath: path)
        let usesSlots = store.hasCurrent || store.hasNext || store.databaseHasKeySlotSalt
        throw DatabaseManagerError.incorrectPasswordOrSettings(path: path, keySlotFile: usesSlots ? store.path : nil)
    }

    /// The shared create/open path: recover an interrupted rekey/encrypt/decrypt, (adopt a
    /// plaintext file), connect, install, fire the event, migrate. `slotPassword` is the password
    /// that opened a key-slot database's slot (its digest is kept for ``isCurrentPassword(_:)-(String)``).
    /// `retiring`: the connections a ``reopen()`` replaces, closed (and their close announced)
    /// once the new connection is made or has failed.
    func openFlow(
        key: SecretBytes, creating: Bool, slotPassword: SecretBytes? = nil, retiring: RetiringConnections? = nil
    ) throws {
        guard database == nil else { throw DatabaseManagerError.alreadyOpen }
        func retire(connected: Bool) {
            guard let retiring else { return }
            retiring.close(keepingWAL: connected)
            if retiring.wasOpen { notify(.didClose) }
        }
        let connection: Connection
        var derived: KeyDerivation.Derived?
        let cipher: CipherOptions
        var interruptedRekey: InPlaceRekeyMarker?
        do {
            (connection, derived, cipher) = try connectForOpen(key: key, creating: creating, stale: &interruptedRekey)
        } catch {
            retire(connected: false)
            let error = InPlaceRekeyCheck.explainingInterrupted(
                DatabaseManagerError(diagnosing: error, path: databasePath ?? "").refinedUnlockFailure(
                    path: databasePath ?? "", pageSize: configuration.cipher.expectedPageSize, rawKey: key.isRawKey),
                path: databasePath ?? "", key: key, cipher: configuration.cipher, stale: interruptedRekey)
            if error.isReportable { notify(.didFail(error)) }
            throw error
        }
        retire(connected: true)
        if let mode = configuration.journalMode {
            do {
                try connection.executeScript("PRAGMA journal_mode = \(mode.rawValue)")
            } catch {
                connection.close()
                throw DatabaseManagerError(diagnosing: error, path: databasePath ?? "")
            }
        }
        foundCipher = cipher == configuration.cipher ? nil : cipher
        database = Database(connection: connection)
        if key !== cachedKey { passwordDigest = slotPassword.map(PasswordDigest.of) }
        cachedKey = key
        derivedKey = derived
        configureReaders()
        notify(creating ? .didCreate : .didOpen)
        if !creating { try reportOlderFormat() }
        if let migrator = schemaMigrator, database != nil {
            do { try migrate(using: migrator) } catch {
                close()
                throw error
            }
        }
    }

    /// The connection an open starts from: recovery of an interrupted operation, then the new
    /// file, or the unlock of the existing one and the checks after it, with the settings that
    /// opened it (``FormatFallback``). `stale` receives the marker of an interrupted key change
    /// in place, for the error of a refused key.
    private func connectForOpen(
        key: SecretBytes, creating: Bool, stale: inout InPlaceRekeyMarker?
    ) throws -> (Connection, KeyDerivation.Derived?, CipherOptions) {
        let path = try requirePath()
        stale = InPlaceRekeyMarker.takeStale(for: path)
        try InterruptedOperationRecovery.recover(atPath: path)
        if creating {
            let (connection, derived) = try createFile(path: path, key: key)
            return (connection, derived, configuration.cipher)
        }
        try adoptPlaintextDatabaseIfConfigured(path: path, key: key)
        if let fileError = DatabaseManagerError(problemBeforeUnlockAt: path) { throw fileError }
        let known = key === cachedKey ? derivedKey : nil
        let ciphers = FormatFallback.attempts(configured: configuration.cipher, remembered: foundCipher)
        let (connection, derived, cipher) = try DerivedKeys.connect(
            path: path, mode: .readWrite, key: key, known: known, configuration: configuration, ciphers: ciphers)
        do {
            try Unlocking.checkFileLength(connection, path: path)
            if configuration.checksIntegrityOnOpen { try IntegrityCheck.verify(connection, path: path) }
        } catch {
            connection.close()
            throw error
        }
        return (connection, derived, cipher)
    }

    /// Builds the database in `<path>-creating`, checks its header is encrypted, then links it
    /// to `path` (which fails rather than replace a file) and opens it. A password is derived
    /// once, for a fresh salt: both connections are keyed with the result.
    private func createFile(path: String, key password: SecretBytes) throws -> (Connection, KeyDerivation.Derived?) {
        if let reason = DatabaseFile(path: path).pathProblem { throw DatabaseManagerError.invalidPath(path: path, reason: reason) }
        switch DatabaseFile(path: path).kind() {
        case .missing: break
        case .parentDirectoryMissing: throw DatabaseManagerError.parentDirectoryMissing(path: path)
        case .directory: throw DatabaseManagerError.isDirectory(path: path)
        default: throw DatabaseManagerError.fileAlreadyExists(path: path)
        }
        let directory = DatabaseFile(path: path).directory
        guard FileSystem.isWritable(directory) else {
            throw DatabaseManagerError.permissionDenied(path: directory, underlying: nil)
        }
        let staging = path + "-creating"
        try removeStaging(staging)
        var creating = configuration
        creating.headerSalt = try Self.headerSaltForNewFile(at: path, cipher: configuration.cipher, key: password)
        let (key, derived) = DerivedKeys.keyForNewFile(password, cipher: configuration.cipher, salt: creating.headerSalt)
        do {
            let connection = try Unlocking.connect(path: staging, mode: .readWriteCreate, key: key, configuration: creating)
            defer { connection.close() }
            // Scratch until it is linked: a crash before that leaves only `-creating`, which the
            // next create removes, and FileSystem.sync flushes it once before the link; so its
            // own commit needs no sync of its own (a flush that raw C's create does not make).
            try connection.executeScript("PRAGMA synchronous = OFF; PRAGMA user_version = 0")
        } catch {
            try? FileSystem.removeDatabaseFiles(staging, leavingForeign: true)
            if creating.headerSalt != nil { try? HeaderSaltFile.remove(for: path) }
            throw DatabaseManagerError(diagnosing: error, path: path)
        }
        do {
            guard Self.isEncrypted(staging, headerSalt: creating.headerSalt) else {
                throw DatabaseManagerError.encryptionNotActive(path: path)
            }
            try FileSystem.sync(staging)
            try FileSystem.link(staging, to: path)
        } catch {
            try? FileSystem.removeDatabaseFiles(staging, leavingForeign: true)
            if creating.headerSalt != nil { try? HeaderSaltFile.remove(for: path) }
            throw DatabaseManagerError(diagnosing: error, path: path)
        }
        try? FileSystem.removeDatabaseFiles(staging, leavingForeign: true)
        try? FileSystem.sync(directory)
        return (try Unlocking.connect(path: path, mode: .readWrite, key: key, configuration: configuration), derived)
    }

    private func removeStaging(_ staging: String) throws {
        try FileSystem.removeDatabaseFiles(staging)
    }
}
