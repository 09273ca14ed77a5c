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
    /// | none | anything else (damaged SQLite header, empty, directory…) | what ``open(password:)`` would say of it (``DatabaseManagerError/notADatabase(path:reason:)``…); untouched, **no key is made** |
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
    ///   ``DatabaseManagerError/alreadyOpen``, and the errors of ``create(_:keySlots:label:)``, ``open(_:)`` and
    ///   ``DatabaseTools/encryptPlaintextDatabase(at:to:key:configuration:progress:)``.
    @discardableResult
    public func openOrCreate(
        keyStore: any KeyStore, identifier: String, progress: ((Double) -> Void)? = nil
    ) throws -> FirstLaunchOutcome {
        try locked {
            guard database == nil else { throw DatabaseManagerError.alreadyOpen }
            let path = try requirePath()
            try InterruptedOperationRecovery.recover(atPath: path)
            let kind = DatabaseFile(path: path).kind()
            let key: DatabaseKey
            let isNew: Bool
            let keys = FirstLaunchKeys(store: keyStore, identifier: identifier)
            if let stored = try keys.load() {
                (key, isNew) = (stored, false)
            } else {
                try keys.requireNoEncryptedDatabase(kind, path: path)
                (key, isNew) = try keys.storeNew()
            }
            switch kind {
            case .missing:
                try openFlow(key: key.sqlcipherKey, creating: true)
                return isNew ? .createdWithNewKey : .resumedCreate
            case .plaintextSQLite, .damagedSQLiteHeader:
                try EncryptFlow(
                    source: path, destination: nil, key: key.sqlcipherKey, configuration: configuration
                ).run(progress: progress)
                try openStored(key, identifier: identifier, path: path)
                return isNew ? .encryptedPlaintextWithNewKey : .resumedEncryption
            default:
                try openStored(key, identifier: identifier, path: path)
                return .openedExisting
            }
        }
    }

    // MARK: - Steps

    /// Opens with a stored key; a key the file refuses is ``DatabaseManagerError/keyRefused(identifier:path:)``.
    private func openStored(_ key: DatabaseKey, identifier: String, path: String) throws {
        do {
            try openFlow(key: key.sqlcipherKey, creating: false)
        } catch DatabaseManagerError.incorrectKeyOrSettings, DatabaseManagerError.incorrectPasswordOrSettings {
            throw DatabaseManagerError.keyRefused(identifier: identifier, path: path)
        }
    }
}
