import SQLCipherCore
import SQLCipherKeys

/// The key of one database in a key store on the first launch
/// (``DatabaseManager/openOrCreate(keyStore:identifier:progress:)``): read it, or make and store
/// one — durably, before anything uses it, and never beside an encrypted file.
struct FirstLaunchKeys {
    /// Where the key is kept.
    let store: any KeyStore
    /// The key's name in the store.
    let identifier: String

    /// The stored key, `nil` when the store certainly has none; any failure to read it is
    /// ``DatabaseManagerError/keyUnavailable(identifier:underlying:)``.
    func load() throws -> DatabaseKey? {
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
    func requireNoEncryptedDatabase(_ kind: DatabaseFileKind, path: String) throws {
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
    func storeNew() throws -> (DatabaseKey, isNew: Bool) {
        let key = try DatabaseKey.generate()
        do {
            try store.storeKey(key, identifier: identifier)
            return (key, true)
        } catch KeyStoreError.Code.alreadyStored {
            guard let stored = try load() else {
                throw DatabaseManagerError.keyNotStored(
                    identifier: identifier, underlying: .notStored(identifier: identifier, store: store.storeDescription))
            }
            return (stored, false)
        } catch {
            throw DatabaseManagerError.keyNotStored(
                identifier: identifier, underlying: KeyStoreError(error, store: store.storeDescription))
        }
    }
}
