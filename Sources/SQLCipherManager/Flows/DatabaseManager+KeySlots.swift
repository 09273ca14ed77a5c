import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - Key slots

extension DatabaseManager {
    /// ``create(_:keySlots:label:)`` with `keySlots`, its password in NFC.
    func createWithKeySlotsFlow(password: SecretBytes, label: String) throws {
        try lockedKeySlots {
            try configuration.passwordPolicy.validate(password)
            guard database == nil else { throw DatabaseManagerError.alreadyOpen }
            let path = try requirePath()
            try InterruptedOperationRecovery.recover(atPath: path)
            let store = KeySlotStore(databasePath: path)
            if store.hasCurrent { throw DatabaseManagerError.fileAlreadyExists(path: store.path) }
            if DatabaseFile(path: path).exists { throw DatabaseManagerError.fileAlreadyExists(path: path) }
            let lock = try store.lock()
            defer { lock.release() }
            let argon2 = try configuration.keySlots.parametersForNewSlot()
            let dataKey = Sodium.random(Sodium.keyLength)
            var file = KeySlotFile(databaseID: Sodium.randomData(16))
            _ = try file.addSlot(.password(password), label: label, argon2: argon2, dataKey: dataKey)
            file.authenticate(dataKey: dataKey)
            try store.writeNext(file)
            do {
                try openFlow(key: file.sqlcipherKey(dataKey), creating: true, slotPassword: password)
            } catch {
                if store.databaseHasKeySlotSalt { try? store.installNext() } else { try? store.removeNext() }
                throw error
            }
            try store.installNext()
        }
    }

    /// The flow of ``DatabaseKeySlots/change(password:to:)-(String,_)``.
    func changePasswordFlow(from old: SecretBytes, to new: SecretBytes) throws {
        try lockedKeySlots {
            try configuration.passwordPolicy.validate(new)
            let path = try database?.connection.path ?? requirePath()
            let store = KeySlotStore(databasePath: path)
            guard store.hasCurrent || store.hasNext else { throw KeySlotError.notKeySlotDatabase(path: path) }
            if store.hasNext, database == nil { _ = try keySlotKey(UnlockSecret.typed(old), path: path, fallsBack: false) }
            let lock = try store.lock()
            defer { lock.release() }
            guard var file = try store.readCurrent() else {
                if store.hasNext { throw DatabaseManagerError.operationInProgress(path: store.database) }
                throw KeySlotError.notKeySlotDatabase(path: path)
            }
            try store.checkBinding(file, at: store.path)
            let oldPassword = UnlockSecret.password(old)
            guard let unlocked = try file.unlock(with: [oldPassword], options: configuration.keySlots, path: store.path) else {
                throw DatabaseManagerError.incorrectPasswordOrSettings(path: path, keySlotFile: store.path)
            }
            let key = file.sqlcipherKey(unlocked.dataKey)
            try checkSlotRevision(file, key: key, store: store, at: store.path)
            try store.removeNextIfDebris()
            let argon2 = try configuration.keySlots.parametersForNewSlot()
            var slot = file.slots[unlocked.index]
            slot.salt = Sodium.randomData(Sodium.saltLength)
            slot.opsLimit = argon2.opsLimit
            slot.memoryKiB = argon2.memoryKiB
            var budget = file
            budget.slots[unlocked.index] = slot
            if let excess = budget.budgetExcess() { throw KeySlotError.slotLimitReached(reason: "with the new cost, \(excess)") }
            let kek = try UnlockSecret.password(new).keyEncryptionKey(salt: slot.salt, argon2: argon2)
            try slot.renewKeyPair(kek: kek, dataKey: unlocked.dataKey, databaseID: file.databaseID, generation: file.generation)
            file.slots[unlocked.index] = slot
            file.bumpRevision()
            file.authenticate(dataKey: unlocked.dataKey)
            // An interrupt during the Argon2id work stops here; the write is the change.
            try Interruption.safePoint()
            try store.writeCurrent(file)
            recordSlotRevision(file, key: key, store: store)
            if isCurrentPassword(old) { passwordDigest = PasswordDigest.of(new) }
        }
    }

    /// The flow of ``DatabaseKeySlots/add(password:label:)-(String,_)``.
    func addPasswordFlow(_ password: SecretBytes, label: String) throws -> KeySlot {
        try lockedKeySlots {
            try configuration.passwordPolicy.validate(password)
            let argon2 = try configuration.keySlots.parametersForNewSlot()
            return try addSecretSlot(.password(password), label: label, argon2: argon2)
        }
    }

    /// The flow of ``DatabaseKeySlots/addRecoveryKey(label:)``.
    func addRecoveryKeyFlow(label: String) throws -> RecoveryKey {
        try lockedKeySlots {
            let secret = Sodium.random(RecoveryKey.randomLength)
            let slot = try addSecretSlot(.recovery(secret), label: label)
            return RecoveryKey(slotID: slot.id, text: RecoveryKey.text(for: secret))
        }
    }

    /// The flow of ``DatabaseKeySlots/add(rawKey:label:)``.
    func addRawKeyFlow(_ rawKey: Data, label: String) throws -> KeySlot {
        try lockedKeySlots {
            guard rawKey.count == Sodium.keyLength else { throw DatabaseManagerError.invalidKeyLength(rawKey.count) }
            return try addSecretSlot(.rawKey(SecretBytes(rawKey)), label: label)
        }
    }

    /// The flow of ``DatabaseKeySlots/remove(id:)``.
    func removeSlotFlow(id: Int) throws {
        try lockedKeySlots {
            try changeSlots { file, _ in
                guard let index = file.slots.firstIndex(where: { $0.id == id }) else { throw KeySlotError.slotNotFound(id: id) }
                guard file.slots.count > 1 else { throw KeySlotError.lastSlot(id: id) }
                file.slots.remove(at: index)
            }
        }
    }

    /// The flow of ``DatabaseKeySlots/remove(password:)``.
    func removePasswordFlow(_ password: String) throws {
        try lockedKeySlots {
            try changeSlots { file, _ in
                let secret = UnlockSecret.password(SecretBytes(password: password))
                let path = databasePath ?? ""
                guard let unlocked = try file.unlock(with: [secret], options: configuration.keySlots, path: path) else {
                    throw DatabaseManagerError.incorrectPasswordOrSettings(path: path, keySlotFile: KeySlotStore(databasePath: path).path)
                }
                guard file.slots.count > 1 else { throw KeySlotError.lastSlot(id: file.slots[unlocked.index].id) }
                file.slots.remove(at: unlocked.index)
            }
            if isCurrentPassword(password) { passwordDigest = nil }
        }
    }

    /// The flow of ``DatabaseKeySlots/list()``.
    func listSlotsFlow() throws -> [KeySlot] {
        try lockedKeySlots {
            let path = try database?.connection.path ?? requirePath()
            let store = KeySlotStore(databasePath: path)
            if let file = try store.readCurrent() ?? store.readNext() { return file.slots.map(\.info) }
            if store.databaseHasKeySlotSalt { throw KeySlotError.slotFileMissing(path: store.path, database: path) }
            throw KeySlotError.notKeySlotDatabase(path: path)
        }
    }

    /// ``DatabaseKeySlots/isEnabled``.
    var usesKeySlots: Bool {
        guard let path = locked({ database?.connection.path ?? databasePath }) else { return false }
        let store = KeySlotStore(databasePath: path)
        return store.hasCurrent || store.hasNext || store.databaseHasKeySlotSalt
    }

    /// Opens an existing key-slot database with a recovery key in its written form.
    ///
    /// - Throws: ``DatabaseManagerError/keySlots(_:)`` with ``KeySlotError/invalidRecoveryKey(reason:)``
    ///   for a mistyped key or ``KeySlotError/notKeySlotDatabase(path:)``,
    ///   ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)`` when no recovery slot
    ///   accepts it, and the errors of ``open(password:)``.
    public func open(recoveryKey: String) throws {
        try lockedKeySlots {
            let secret = try RecoveryKey.secret(parsing: recoveryKey)
            let path = try requirePath()
            guard let key = try keySlotKey([.recovery(secret)], path: path, fallsBack: false) else {
                throw KeySlotError.notKeySlotDatabase(path: path)
            }
            try openFlow(key: key, creating: false)
        }
    }

    // MARK: - Changing the slot file

    /// Adds a slot for `secret` to the open database's slot file.
    func addSecretSlot(_ secret: UnlockSecret, label: String, argon2: Argon2Parameters? = nil) throws -> KeySlot {
        try changeSlots { file, dataKey in try file.addSlot(secret, label: label, argon2: argon2, dataKey: dataKey).info }
    }

    /// Under the slot lock, with the open database's data key: reads and authenticates the
    /// slot file, lets `body` change it, then writes it back, authenticated, atomically and durably.
    func changeSlots<T>(_ body: (inout KeySlotFile, SecretBytes) throws -> T) throws -> T {
        let (store, lock, file, dataKey) = try openSlotFile()
        defer { lock.release() }
        var changed = file
        let result = try body(&changed, dataKey)
        changed.bumpRevision()
        changed.authenticate(dataKey: dataKey)
        try Interruption.safePoint()
        try store.writeCurrent(changed)
        recordSlotRevision(changed, key: file.sqlcipherKey(dataKey), store: store)
        return result
    }

    /// The open database's slot store, or ``KeySlotError/notKeySlotDatabase(path:)`` when it has
    /// no slot file: the check a flow makes before it announces, reading only.
    func requireSlotStore() throws -> KeySlotStore {
        let db = try requireDatabase()
        let store = KeySlotStore(databasePath: db.connection.path)
        guard store.hasCurrent || store.hasNext else { throw KeySlotError.notKeySlotDatabase(path: db.connection.path) }
        return store
    }

    /// The open database's slot file, authenticated with its data key, and the slot lock. It
    /// takes the lock file and removes a debris `.next`, so a flow that announces calls it after
    /// its announcement.
    func openSlotFile() throws -> (KeySlotStore, OperationLock, KeySlotFile, SecretBytes) {
        let store = try requireSlotStore()
        let db = try requireDatabase()
        let lock = try store.lock()
        do {
            guard let file = try store.readCurrent(), let dataKey = cachedKey?.dataKeyOfRawKeyText() else {
                if store.hasNext { throw DatabaseManagerError.operationInProgress(path: store.database) }
                throw KeySlotError.notKeySlotDatabase(path: db.connection.path)
            }
            try store.checkBinding(file, at: store.path)
            guard file.isAuthentic(dataKey: dataKey) else { throw KeySlotError.slotFileTampered(path: store.path) }
            try checkSlotRevision(file, key: file.sqlcipherKey(dataKey), store: store, at: store.path)
            try store.removeNextIfDebris()
            return (store, lock, file, dataKey)
        } catch {
            lock.release()
            throw error
        }
    }
}

extension SecretBytes {
    /// The 32 key bytes of a raw key text `x'<64 hex>'` or `x'<64 hex><32 hex salt>'`, `nil` otherwise.
    func dataKeyOfRawKeyText() -> SecretBytes? {
        guard isRawKey, count == 67 || count == 99 else { return nil }
        let key = SecretBytes(zeroedCount: Sodium.keyLength)
        let ok = withBytes { text in
            key.withMutableBytes { out in
                func nibble(_ character: UInt8) -> UInt8? {
                    switch character {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
                    default: nil
                    }
                }
                for index in 0..<Sodium.keyLength {
                    guard let high = nibble(text[2 + 2 * index]), let low = nibble(text[3 + 2 * index]) else { return false }
                    out[index] = high << 4 | low
                }
                return true
            }
        }
        return ok ? key : nil
    }
}

extension DatabaseManager {
    /// ``locked(_:_:)`` (which turns a ``KeySlotError`` into ``DatabaseManagerError/keySlots(_:)``),
    /// with a file-system failure turned into the ``DatabaseManagerError`` a user can act on;
    /// a flow that changes the key (`rekeying`) runs in ``announcing(_:failed:_:)``, its
    /// `willRekey` delivered before the work.
    func lockedKeySlots<T>(_ call: String = #function, rekeying: Bool = false, _ body: () throws -> T) throws -> T {
        func mapped() throws -> T {
            do {
                return try body()
            } catch let failure as FileSystem.Failure {
                throw DatabaseManagerError(failure)
            }
        }
        if rekeying { return try announcing(call, failed: { .didFailToRekey($0) }, mapped) }
        return try locked(call, mapped)
    }
}
