import Foundation
import SQLCipherKeys

// MARK: - Opening with a DatabaseKey

extension DatabaseManager {
    /// Creates a new database keyed with a raw ``DatabaseKey`` (SQLCipher's `x'…'` key form,
    /// given through `sqlite3_key`, no PBKDF2) and opens it; otherwise as ``create(password:)-(String)``.
    public func create(key: DatabaseKey) throws {
        try locked { try openFlow(key: key.sqlcipherKey, creating: true) }
    }

    /// Opens an existing database with a raw ``DatabaseKey`` (`sqlite3_key` with `x'…'`);
    /// otherwise as ``open(password:)-(String)``.
    ///
    /// - Throws: ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)`` when the key does not
    ///   decrypt the file (left untouched), and the other errors of ``open(password:)-(String)``.
    public func open(key: DatabaseKey) throws {
        try locked { try openFlow(key: keySlotKey(for: key, path: requirePath()) ?? key.sqlcipherKey, creating: false) }
    }

    /// Changes the open database's key to `key`: in place (`sqlite3_rekey` in one write
    /// transaction) unless `options` change the settings (then the crash-safe export,
    /// `ATTACH … KEY ?`); otherwise as ``rekey(password:options:progress:)-(String,_,_)``.
    public func rekey(key: DatabaseKey, options: CipherOptions? = nil, progress: ((Double) -> Void)? = nil) throws {
        try announcing(failed: { .didFailToRekey($0) }) {
            try refuseKeySlotRekey()
            try rekeyFlow(key: key.sqlcipherKey, options: options, progress: progress)
        }
    }
}
