import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - Rotation and conversion

extension DatabaseManager {
    /// The flow of ``DatabaseKeySlots/rekey(progress:)``.
    func rotateDataKeyFlow(progress: ((Double) -> Void)?) throws {
        try lockedKeySlots(rekeying: true) {
            _ = try requireSlotStore()
            try announce(.willRekey)
            let (store, lock, file, _) = try openSlotFile()
            defer { lock.release() }
            let newKey = Sodium.random(Sodium.keyLength)
            let next = try file.resealed(to: newKey)
            let sqlcipherKey = next.sqlcipherKey(newKey)
            try store.writeNext(next)
            try rekeyThenSettle(store, to: sqlcipherKey, progress: progress) {
                try store.installNext()
                recordSlotRevision(next, key: sqlcipherKey, store: store)
            }
        }
    }

    /// The flow of ``DatabaseKeySlots/enable(password:label:progress:)-(String,_,_)``.
    func convertToKeySlotsFlow(password passwordKey: SecretBytes, label: String, progress: ((Double) -> Void)?) throws {
        try lockedKeySlots(rekeying: true) {
            let db = try requireDatabase()
            let store = KeySlotStore(databasePath: db.connection.path)
            guard !store.hasCurrent, !store.hasNext, !store.databaseHasKeySlotSalt else {
                throw KeySlotError.keySlotDatabase(path: db.connection.path)
            }
            try announce(.willRekey)
            guard cachedKey?.isEqual(to: passwordKey) == true || opensDatabase(store.database, with: passwordKey) else {
                throw DatabaseManagerError.incorrectPasswordOrSettings(path: db.connection.path)
            }
            let lock = try store.lock()
            defer { lock.release() }
            let argon2 = try configuration.keySlots.parametersForNewSlot()
            let dataKey = Sodium.random(Sodium.keyLength)
            var file = KeySlotFile(databaseID: Sodium.randomData(16))
            _ = try file.addSlot(.password(passwordKey), label: label, argon2: argon2, dataKey: dataKey)
            file.authenticate(dataKey: dataKey)
            try store.writeNext(file)
            try rekeyThenSettle(store, to: file.sqlcipherKey(dataKey), progress: progress) { try store.installNext() }
            passwordDigest = PasswordDigest.of(passwordKey)
        }
    }

    /// The flow of ``DatabaseKeySlots/disable(password:progress:)``.
    func convertToPasswordFlow(_ password: String, progress: ((Double) -> Void)?) throws {
        try lockedKeySlots(rekeying: true) {
            try configuration.passwordPolicy.validate(password)
            _ = try requireSlotStore()
            try announce(.willRekey)
            let (store, lock, file, dataKey) = try openSlotFile()
            defer { lock.release() }
            var marker = KeySlotFile(databaseID: file.databaseID, generation: file.generation)
            marker.passwordKeyed = true
            marker.authenticate(dataKey: dataKey)
            try store.writeNext(marker)
            try rekeyThenSettle(store, to: SecretBytes(password: password), progress: progress) {
                try store.removeCurrent()
                try store.removeNext()
                if let open = database { try? KeySlotRevision.remove(in: open.connection) }
            }
            passwordDigest = nil
        }
    }

    /// Runs the rekey to `key` (in place when the salt stays, else the export), then `finish` (the database has the new key) — also when
    /// the rekey failed after the new file was in place — or removes `.next` (it has the old key).
    private func rekeyThenSettle(
        _ store: KeySlotStore, to key: SecretBytes, progress: ((Double) -> Void)?, finish: () throws -> Void
    ) throws {
        do {
            try rekeyFlow(key: key, options: nil, progress: progress)
        } catch {
            if cachedKey?.isEqual(to: key) == true { try? finish() } else { try? store.removeNext() }
            throw error
        }
        try finish()
    }

    /// The data key after one of `secrets` (a typed password's readings) opened a slot.
    func exportDataKeyFlow(_ secrets: [UnlockSecret]) throws -> Data {
        try lockedKeySlots {
            let path = try database?.connection.path ?? requirePath()
            let store = KeySlotStore(databasePath: path)
            if store.hasNext, database == nil { _ = try keySlotKey(secrets, path: path, fallsBack: false) }
            guard let file = try store.readCurrent() else {
                if store.databaseHasKeySlotSalt { throw KeySlotError.slotFileMissing(path: store.path, database: path) }
                throw KeySlotError.notKeySlotDatabase(path: path)
            }
            try store.checkBinding(file, at: store.path)
            guard let unlocked = try file.unlock(with: secrets, options: configuration.keySlots, path: store.path)
            else { throw DatabaseManagerError.incorrectPasswordOrSettings(path: path, keySlotFile: store.path) }
            try checkSlotRevision(file, key: file.sqlcipherKey(unlocked.dataKey), store: store, at: store.path)
            return unlocked.dataKey.withBytes { Data($0) }
        }
    }
}

extension DatabaseManager {
    /// ``rekey(to:options:progress:)`` and ``rekey(to:options:progress:)`` would leave a
    /// key-slot database's slots sealing a key that no longer opens it: refused.
    func refuseKeySlotRekey() throws {
        guard let db = database else { return }
        let store = KeySlotStore(databasePath: db.connection.path)
        if store.hasCurrent || store.hasNext || store.databaseHasKeySlotSalt {
            throw KeySlotError.keySlotDatabase(path: db.connection.path)
        }
    }
}
