import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - Unlocking a key-slot database

extension DatabaseManager {
    /// The SQLCipher key for `open(password:)`, `open(rawKey:)` and `open(recoveryKey:)` of a
    /// key-slot database, after finishing or rolling back an interrupted transition; `nil` when
    /// the database has no key slots (it is then keyed as before).
    ///
    /// Reads only the slot files: the database file is never written on this path, and a
    /// missing, damaged or foreign slot file is a ``KeySlotError`` (``DatabaseManagerError/keySlots(_:)``
    /// once it leaves the flow's ``locked(_:_:)``) before any key is tried.
    /// With `fallsBack`, no matching slot gives `nil` (a raw key may be the data key itself).
    func keySlotKey(_ secrets: [UnlockSecret], path: String, fallsBack: Bool) throws -> SecretBytes? {
        guard database == nil else { throw DatabaseManagerError.alreadyOpen }
        let store = KeySlotStore(databasePath: path)
        store.removeLeftovers()
        guard store.hasCurrent || store.hasNext else {
            if store.databaseHasKeySlotSalt { throw KeySlotError.slotFileMissing(path: store.path, database: path) }
            return nil
        }
        try InterruptedOperationRecovery.recover(atPath: path)
        if store.hasNext {
            let lock = try store.lock()
            defer { lock.release() }
            if store.hasNext { return try resolveTransition(store, secrets: secrets, fallsBack: fallsBack) }
        }
        guard let file = try store.readCurrent(), DatabaseFile(path: store.database).exists else { return nil }
        try store.checkBinding(file, at: store.path)
        guard let unlocked = try file.unlock(with: secrets, options: configuration.keySlots, path: store.path) else {
            if fallsBack { return nil }
            throw DatabaseManagerError.incorrectPasswordOrSettings(path: path, keySlotFile: store.path)
        }
        let key = file.sqlcipherKey(unlocked.dataKey)
        try checkSlotRevision(file, key: key, store: store, at: store.path)
        return key
    }

    /// A transition (create, rotation, conversion) was interrupted: each side's key — the one
    /// `<db>.scm-keys.next` gives, and the one `<db>.scm-keys` (or the password itself, when there
    /// is no slot file) gives — is tried on the database, and the side that opens it wins: its
    /// files are kept and the other side's removed. The caller holds the slot lock.
    private func resolveTransition(_ store: KeySlotStore, secrets: [UnlockSecret], fallsBack: Bool) throws -> SecretBytes? {
        // A `.next` that is not a complete file is debris (ours are renamed into place whole):
        // it is left out, and removed below once the current file opens the database.
        let debris = store.hasCurrent && store.nextIsDebris
        let next = debris ? nil : try store.readNext()
        let current = try store.readCurrent()
        guard DatabaseFile(path: store.database).exists else {
            // A creation that stopped before the database appeared.
            if current == nil { try store.removeNext() }
            return nil
        }
        let passwords = secrets.compactMap { if case .password(let bytes) = $0 { bytes } else { nil } }
        var candidates: [(key: SecretBytes, file: KeySlotFile?, finish: () throws -> Void)] = []
        if let next, next.passwordKeyed == true {
            candidates += passwords.map {
                (
                    $0, nil,
                    {
                        try store.removeCurrent()
                        try store.removeNext()
                    }
                )
            }
        } else if let next, let unlocked = try unlockPlanted(next, with: secrets, at: store.nextPath) {
            candidates.append((next.sqlcipherKey(unlocked.dataKey), next, store.installNext))
        }
        var currentUnlocked = false
        if let current {
            if let unlocked = try current.unlock(with: secrets, options: configuration.keySlots, path: store.path) {
                currentUnlocked = true
                candidates.append((current.sqlcipherKey(unlocked.dataKey), current, store.removeNext))
            }
        } else {
            candidates += passwords.map { ($0, nil, store.removeNext) }
        }
        for candidate in candidates where opensDatabase(store.database, with: candidate.key) {
            if let file = candidate.file {
                do {
                    try checkSlotRevision(file, key: candidate.key, store: store, at: file == next ? store.nextPath : store.path)
                } catch KeySlotError.Code.slotFileOutdated where file == next {
                    continue  // an old slot file planted as `.next`: never installed; the current one decides
                }
            }
            try candidate.finish()
            return candidate.key
        }
        // The current file's key does not open the database: the debris may be a damaged `.next`
        // of a rotation that already re-keyed it, so it is kept and named.
        if debris, currentUnlocked { _ = try store.readNext() }
        if fallsBack { return nil }
        throw DatabaseManagerError.incorrectPasswordOrSettings(path: store.database, keySlotFile: store.path)
    }

    /// `file.unlock`, for a `.next` (which only this library writes, always authenticated): one
    /// whose authenticator does not match was planted, and is no candidate rather than an error
    /// that would block every open.
    private func unlockPlanted(_ file: KeySlotFile, with secrets: [UnlockSecret], at path: String) throws -> UnlockedSlot? {
        do {
            return try file.unlock(with: secrets, options: configuration.keySlots, path: path)
        } catch KeySlotError.Code.slotFileTampered {
            return nil
        }
    }

    /// `true` when `key` opens the file (a fresh connection, closed at once).
    func opensDatabase(_ path: String, with key: SecretBytes) -> Bool {
        guard let connection = try? connectToFile(path: path, key: key) else {
            return false
        }
        connection.close()
        return true
    }
}
