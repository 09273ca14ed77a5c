import Foundation

// MARK: - Unlocking a key-slot database

extension DatabaseManager {
    /// The SQLCipher key for `open(password:)`, `open(rawKey:)` and `open(recoveryKey:)` of a
    /// key-slot database, after finishing or rolling back an interrupted transition; `nil` when
    /// the database has no key slots (it is then keyed as before).
    ///
    /// Reads only the slot files: the database file is never written on this path, and a
    /// missing, damaged or foreign slot file is a ``KeySlotError`` before any key is tried.
    /// With `fallsBack`, no matching slot gives `nil` (a raw key may be the data key itself).
    func keySlotKey(_ secrets: [UnlockSecret], path: String, fallsBack: Bool) throws -> SecretBytes? {
        guard database == nil else { throw DatabaseManagerError.alreadyOpen }
        let store = KeySlotStore(databasePath: path)
        store.removeLeftovers()
        guard store.hasCurrent || store.hasNext else {
            if store.databaseHasKeySlotSalt { throw KeySlotError.slotFileMissing(path: store.path, database: path) }
            return nil
        }
        try Self.recoverInterruptedOperation(atPath: path)
        if store.hasNext {
            let lock = try store.lock()
            defer { lock.release() }
            if store.hasNext { return try resolveTransition(store, secrets: secrets, fallsBack: fallsBack) }
        }
        guard let file = try store.readCurrent(), DatabaseFile(path: store.database).exists else { return nil }
        try store.checkBinding(file, at: store.path)
        guard let unlocked = try file.unlock(with: secrets, options: configuration.keySlots, path: store.path) else {
            if fallsBack { return nil }
            throw DatabaseManagerError.incorrectPasswordOrSettings(path: path)
        }
        return file.sqlcipherKey(unlocked.dataKey)
    }

    /// A transition (create, rotation, conversion) was interrupted: each side's key — the one
    /// `<db>.scm-keys.next` gives, and the one `<db>.scm-keys` (or the password itself, when there
    /// is no slot file) gives — is tried on the database, and the side that opens it wins: its
    /// files are kept and the other side's removed. The caller holds the slot lock.
    private func resolveTransition(_ store: KeySlotStore, secrets: [UnlockSecret], fallsBack: Bool) throws -> SecretBytes? {
        let next = try store.readNext()
        let current = try store.readCurrent()
        guard DatabaseFile(path: store.database).exists else {
            // A creation that stopped before the database appeared.
            if current == nil { try store.removeNext() }
            return nil
        }
        let passwords = secrets.compactMap { if case .password(let bytes) = $0 { bytes } else { nil } }
        var candidates: [(key: SecretBytes, finish: () throws -> Void)] = []
        if let next, next.passwordKeyed == true {
            candidates += passwords.map {
                (
                    $0,
                    {
                        try store.removeCurrent()
                        try store.removeNext()
                    }
                )
            }
        } else if let next, let unlocked = try next.unlock(with: secrets, options: configuration.keySlots, path: store.nextPath) {
            candidates.append((next.sqlcipherKey(unlocked.dataKey), store.installNext))
        }
        if let current {
            if let unlocked = try current.unlock(with: secrets, options: configuration.keySlots, path: store.path) {
                candidates.append((current.sqlcipherKey(unlocked.dataKey), store.removeNext))
            }
        } else {
            candidates += passwords.map { ($0, store.removeNext) }
        }
        for candidate in candidates where opensDatabase(store.database, with: candidate.key) {
            try candidate.finish()
            return candidate.key
        }
        if fallsBack { return nil }
        throw DatabaseManagerError.incorrectPasswordOrSettings(path: store.database)
    }

    /// `true` when `key` opens the file (a fresh connection, closed at once).
    func opensDatabase(_ path: String, with key: SecretBytes) -> Bool {
        guard let connection = try? Self.connect(path: path, mode: .readWrite, key: key, configuration: configuration) else {
            return false
        }
        connection.close()
        return true
    }
}
