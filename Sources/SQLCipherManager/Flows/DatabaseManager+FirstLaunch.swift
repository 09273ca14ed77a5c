import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - First launch: the key lives in a key store

extension DatabaseManager {
    /// Opens the database with the key kept in `keyStore` under `identifier`, making the key
    /// and the database on the first launch — the "random key in the keychain" pattern done in
    /// the order that cannot lose data:
    ///
    /// | Key in the store | File at ``databaseURL`` | What happens |
    /// |---|---|---|
    /// | none | none | 32 bytes from the system's secure random source (`getentropy`) are **stored first** (durably), then the database is created with them |
    /// | none | plaintext SQLite | a new key is **stored first**, then the file is encrypted in place (the crash-safe `sqlcipher_export` engine of ``DatabaseTools/encryptPlaintextDatabase(at:to:key:configuration:progress:)``), then opened |
    /// | none | encrypted | ``DatabaseManagerError/keyUnavailable(identifier:underlying:)``; the file is untouched and **no key is made** |
    /// | none | anything else (damaged SQLite header, empty, directory…) | what ``open(password:)-(String)`` would say of it (``DatabaseManagerError/notADatabase(path:reason:)``…); untouched, **no key is made** |
    /// | unavailable (locked, unsafe permissions…) | any | ``DatabaseManagerError/keyUnavailable(identifier:underlying:)``; nothing is touched, no key is made |
    /// | stored | encrypted | opened with it (`sqlite3_key`, raw `x'…'` key); a key the file refuses gives ``DatabaseManagerError/keyRefused(identifier:path:)``, file untouched |
    /// | stored | none or plaintext | an earlier launch stopped after storing the key: the database is created, or the plaintext file encrypted, with the stored key |
    ///
    /// An encryption interrupted by a crash is finished or rolled back first
    /// (``DatabaseTools/recoverInterruptedOperation(at:)``), so a `kill -9` at any moment of the first launch
    /// ends, on the next launch, with every row readable under the stored key. When two
    /// processes race on the first launch, the store keeps the first key
    /// (``KeyStoreError/alreadyStored(identifier:store:)``) and the second process uses it.
    ///
    /// - Parameters:
    ///   - keyStore: where the database's key is kept (``FileKeyStore``, the keyring, the app's own).
    ///   - identifier: the key's name in the store.
    ///   - progress: while a plaintext file is encrypted, the fraction done, 0…1.
    /// - Returns: which branch was taken.
    /// - Throws: ``DatabaseManagerError/keyUnavailable(identifier:underlying:)``,
    ///   ``DatabaseManagerError/keyRefused(identifier:path:)``,
    ///   ``DatabaseManagerError/keyNotStored(identifier:underlying:)`` (nothing created or encrypted),
    ///   ``DatabaseManagerError/alreadyOpen``, and the errors of ``create(key:)``, ``open(key:)`` and
    ///   ``DatabaseTools/encryptPlaintextDatabase(at:to:key:configuration:progress:)``.
    @discardableResult
    public func openOrCreate(
        keyStore: any KeyStore, identifier: String, progress: ((Double) -> Void)? = nil
    ) throws -> FirstLaunchOutcome {
        try locked {
            guard database == nil else { throw DatabaseManagerError.alreadyOpen }
            let path = try requirePath()
            try Self.recoverInterruptedOperation(atPath: path)
            let kind = DatabaseFile(path: path).kind()
            let key: DatabaseKey
            let isNew: Bool
            if let stored = try Self.loadKey(from: keyStore, identifier: identifier) {
                (key, isNew) = (stored, false)
            } else {
                try Self.requireNoEncryptedDatabase(kind, path: path, identifier: identifier, store: keyStore)
                (key, isNew) = try Self.storeNewKey(in: keyStore, identifier: identifier)
            }
            switch kind {
            case .missing:
                try openFlow(key: key.sqlcipherKey, creating: true)
                return isNew ? .createdWithNewKey : .resumedCreate
            case .plaintextSQLite, .damagedSQLiteHeader:
                try Self.encryptFlow(
                    source: path, destination: nil, key: key.sqlcipherKey, configuration: configuration, progress: progress)
                try openStored(key, identifier: identifier, path: path)
                return isNew ? .encryptedPlaintextWithNewKey : .resumedEncryption
            default:
                try openStored(key, identifier: identifier, path: path)
                return .openedExisting
            }
        }
    }

    // MARK: - Steps

    /// The stored key, `nil` when the store certainly has none; any failure to read it is
    /// ``DatabaseManagerError/keyUnavailable(identifier:underlying:)``.
    private static func loadKey(from store: any KeyStore, identifier: String) throws -> DatabaseKey? {
        do {
            return try store.loadKey(identifier: identifier)
        } catch {
            throw DatabaseManagerError.keyUnavailable(
                identifier: identifier, underlying: KeyStoreError(error, store: store.storeDescription))
        }
    }

    /// Only a missing file or a plaintext database may get a new key; anything else — an
    /// encrypted database, a file whose SQLite header is damaged (it could not be encrypted), a
    /// directory, an empty or special file — is refused before a key is made.
    private static func requireNoEncryptedDatabase(
        _ kind: DatabaseFileKind, path: String, identifier: String, store: any KeyStore
    ) throws {
        switch kind {
        case .missing, .plaintextSQLite: return
        case .encryptedOrNotADatabase:
            if let problem = DatabaseManagerError(problemBeforeUnlockAt: path) { throw problem }
            throw DatabaseManagerError.keyUnavailable(
                identifier: identifier, underlying: .notStored(identifier: identifier, store: store.storeDescription))
        default:
            throw DatabaseManagerError(problemBeforeUnlockAt: path)
                ?? DatabaseManagerError.notADatabase(path: path, reason: "unexpected file")
        }
    }

    /// Generates a key and stores it durably before anything uses it. If another process
    /// stored one first, that one is returned (`isNew` false).
    private static func storeNewKey(in store: any KeyStore, identifier: String) throws -> (DatabaseKey, isNew: Bool) {
        let key = try DatabaseKey.generate()
        do {
            try store.storeKey(key, identifier: identifier)
            return (key, true)
        } catch KeyStoreError.alreadyStored {
            guard let stored = try loadKey(from: store, identifier: identifier) else {
                throw DatabaseManagerError.keyNotStored(
                    identifier: identifier, underlying: .notStored(identifier: identifier, store: store.storeDescription))
            }
            return (stored, false)
        } catch {
            throw DatabaseManagerError.keyNotStored(
                identifier: identifier, underlying: KeyStoreError(error, store: store.storeDescription))
        }
    }

    /// Opens with a stored key; a key the file refuses is ``DatabaseManagerError/keyRefused(identifier:path:)``.
    private func openStored(_ key: DatabaseKey, identifier: String, path: String) throws {
        do {
            try openFlow(key: key.sqlcipherKey, creating: false)
        } catch DatabaseManagerError.incorrectKeyOrSettings, DatabaseManagerError.incorrectPasswordOrSettings {
            throw DatabaseManagerError.keyRefused(identifier: identifier, path: path)
        }
    }
}
