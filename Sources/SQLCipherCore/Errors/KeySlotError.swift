import Foundation

// MARK: - KeySlotError

/// Why a key-slot flow failed. Every case says what to do next; none carries a password, a
/// recovery key, a data key or any other key material. A wrong password or key is
/// ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)``, as for any database.
///
/// The key-slot layer throws it; a ``DatabaseManager`` call (``DatabaseManager/keySlots`` included)
/// throws it inside ``DatabaseManagerError/keySlots(_:)``, so one `catch` of
/// ``DatabaseManagerError`` sees it. A struct with a ``Code``, like ``DatabaseManagerError``, so
/// that a later version can add a failure; a code matches the error bare or inside a
/// ``DatabaseManagerError``:
///
/// ```swift
/// do {
///     try manager.keySlots.remove(id: 3)
/// } catch KeySlotError.Code.lastSlot {
///     // add another password or a recovery key first
/// }
/// ```
public struct KeySlotError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The failure and its details, one case per failure; the library switches over it, an app
    /// over ``code``.
    package let kind: Kind

    /// The error of `kind`.
    init(_ kind: Kind) {
        self.kind = kind
    }

    /// The ``description``, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { description }

    /// What went wrong with the key-slot file and what to do: restore it from the backup kept
    /// next to the database, or use the recovery key. Never a key or a password.
    public var description: String {
        switch kind {
        case .slotFileMissing(let path, let database):
            return "\(database) uses key slots, but its key-slot file \(path) is missing. The database was not touched. "
                + "Restore \(path) from your backup and put it next to the database; without it no password or "
                + "recovery key can open the database."
        case .slotFileDamaged(let path, let reason):
            return "The key-slot file \(path) is damaged (\(reason)). The database was not touched. Restore the file "
                + "from your backup next to the database, then open with a password or the recovery key."
        case .slotFileTampered(let path):
            return "The key-slot file \(path) was edited or mixed with another file's slots (its authenticator does not "
                + "match). The database was not touched. Restore the file from your backup next to the database, then "
                + "open with a password or the recovery key."
        case .slotFileMismatch(let path, let database):
            return "The key-slot file \(path) belongs to another database than \(database). The database was not "
                + "touched. Put the database's own key-slot file (from your backup) next to it."
        case .slotFileOutdated(let path, let database):
            return "The key-slot file \(path) is older than the one \(database) records (it was put back after a "
                + "password change, a removal or a data-key rotation), so it was refused: a revoked password must not "
                + "open the database again. The database was not touched. Put back the newest key-slot file (written by "
                + "the last change), or restore the database and its key-slot file together from the same backup."
        case .slotFileNotAFile(let path, let kind):
            return "The key-slot file \(path) is \(kind), not a regular file, so it was not read. The database was "
                + "not touched. Move it away and put the database's key-slot file (from your backup) in its place."
        case .slotLimitReached(let reason):
            return "No slot was added: \(reason). Remove a slot you no longer need first, or use cheaper Argon2id parameters."
        case .notKeySlotDatabase(let path):
            return "\(path) does not use key slots. Convert it first (keySlots.enable(password:), or `cipherdb keys convert`)."
        case .keySlotDatabase(let path):
            return "\(path) uses key slots: change a password with keySlots.change(password:to:), the data key with "
                + "keySlots.rekey(), or convert back with keySlots.disable(password:) first."
        case .backupNeedsItsOwnKey(let path):
            return "\(path) uses key slots, and its backup is written as a password database, which opens without "
                + "its .scm-keys file: give the backup a password of its own (BackupKey.password) or a raw key "
                + "(BackupKey.rawKey). Nothing was written."
        case .lastSlot(let id):
            return "Slot \(id) is the only way left to unlock the database; it was not removed. Add another password "
                + "or a recovery key first."
        case .slotNotFound(let id):
            return "There is no key slot \(id). List the slots to see their ids."
        case .weakKeyDerivation(let parameters, let minimum):
            return "\(parameters) is below the floor of \(minimum). Use stronger parameters "
                + "(or KeySlotOptions.allowsWeakKeyDerivation, for tests only)."
        case .invalidKeyDerivation(let parameters):
            return "\(parameters) is outside the accepted range (at most \(Argon2Parameters.maximum)). Use other parameters."
        case .invalidRecoveryKey(let reason):
            return "This is not a valid recovery key: \(reason). Type it again exactly as written (8 groups of 5)."
        }
    }
}
