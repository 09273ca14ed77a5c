import Foundation
import SQLCipherCore
import SQLCipherEngine
import SQLCipherKeys
import SQLCipherQuery

// MARK: - Rekey in place

/// A key change that keeps the cipher settings re-encrypts the file where it is, in one write
/// transaction on the writer: `BEGIN IMMEDIATE`, `sqlite3_rekey` (every page read with the old
/// key and written with the new one), `COMMIT` with `synchronous = FULL`. SQLite's rollback
/// journal (written under the old key) or WAL is the crash safety: a crash leaves the file on
/// the old key (the next open rolls the journal back, or ignores the uncommitted frames) or on
/// the new one. No copy, no rename. Other connections on the old key fail their next statement
/// with `SQLITE_NOTADB` (``DatabaseManagerError/keyChanged(path:)``) and never write.
///
/// SQLCipher 3.4.1's `sqlite3_rekey` returns `SQLITE_OK` even when its page loop or commit
/// failed, and then leaves the new key as the connection's write key: so the outcome is
/// checked with a fresh connection keyed with the new key, and on any doubt the writer is
/// closed and opened again with the old key (never written on again).
extension DatabaseManager {
    /// The key to give `sqlite3_rekey` so that the file at `path` keeps its salt — `key` derived
    /// once for it (every later connection, pool readers and siblings included, is keyed with
    /// that raw form), or `key` itself — or `nil` when the change needs another salt (a raw key
    /// with another salt, or a password for a key-slot file): then only a new file will do.
    /// In place, a new salt would reach the rollback journal's copy of page 1, which is
    /// encrypted with the old key: a rolled-back change would then open with neither key.
    func inPlaceKey(for key: SecretBytes, path: String) -> (material: SecretBytes, derived: KeyDerivation.Derived?)? {
        guard let salt = derivedKey?.salt ?? KeyDerivation.salt(ofFileAt: path) else { return key.isRawKey ? (key, nil) : nil }
        let saltHex = salt.map { String(format: "%02x", $0) }.joined()
        if key.isRawKey {
            // x'<64 hex key>' keeps the file's salt; x'<64 hex key><32 hex salt>' sets its own.
            let keepsSalt = key.withBytes { text -> Bool in
                guard text.count == 3 + 2 * (32 + KeyDerivation.saltLength) else { return true }
                // Compared in place (`| 0x20`: lowercase hex), never copied out of the SecretBytes.
                return zip(text[66..<(66 + 2 * KeyDerivation.saltLength)], saltHex.utf8).allSatisfy { $0 | 0x20 == $1 }
            }
            return keepsSalt ? (key, nil) : nil
        }
        guard Array(salt.prefix(KeySlotFile.saltMarker.count)) != KeySlotFile.saltMarker else { return nil }
        let derived = DerivedKeys.derive(key, salt: salt, cipher: connectionConfiguration.cipher)
        return (derived?.rawKey ?? key, derived)
    }

    func inPlaceRekeyFlow(
        key: SecretBytes, keyed: (material: SecretBytes, derived: KeyDerivation.Derived?), progress: ((Double) -> Void)?
    ) throws {
        let db = try requireDatabase()
        let path = db.connection.path
        try connectionConfiguration.cipher.validate(for: LinkedLibrary.cipherVersion(of: db.connection))
        guard !db.isInTransaction else { throw DatabaseManagerError.transactionInProgress }
        guard let oldKey = cachedKey else { throw DatabaseManagerError.noCachedKey }
        let (newKey, newDerived) = keyed
        let marker = InPlaceRekeyMarker(
            previous: InPlaceRekeyMarker.checkValue(of: derivedKey?.rawKey ?? oldKey), new: InPlaceRekeyMarker.checkValue(of: newKey))
        var siblings: [DatabaseManager] = []
        do {
            try InPlaceRekeyCheck.requirePossible(path: path)
            siblings = try pauseSiblings(of: db.connection)
            // Running reads end first; later ones wait for the lock and run on the writer.
            readers.closeAll()
            progress?(0)
            try rekeyInPlace(db.connection, to: newKey, marker: marker)
        } catch {
            let error = DatabaseManagerError(diagnosing: error, path: path)
            reconnectAfterFailedRekey(path: path)
            restoreSiblings(siblings)
            notify(.didFailToRekey(error))
            throw error
        }
        cachedKey = key
        derivedKey = newDerived
        configureReaders()
        reopenSiblings(siblings, key: key, derived: newDerived, cipher: nil)
        progress?(1)
        notify(.didRekey)
    }

    /// The transaction itself, with the marker beside the file while it runs. Throws when the
    /// file is not on the new key afterwards; then the writer has been closed.
    private func rekeyInPlace(_ connection: Connection, to newKey: SecretBytes, marker: InPlaceRekeyMarker) throws {
        let path = connection.path
        let markerPath = InPlaceRekeyMarker.path(for: path)
        guard let lock = try OperationLock.acquire(for: markerPath) else {
            throw DatabaseManagerError.operationInProgress(path: path)
        }
        defer { lock.release() }
        do { try marker.write(for: path) } catch {
            try? InPlaceRekeyMarker.remove(for: path)
            throw error
        }
        FaultPause.at("rekey-marked")
        let applied: Bool
        do {
            applied = try runRekeyTransaction(connection, to: newKey)
        } catch {
            try? InPlaceRekeyMarker.remove(for: path)
            throw error
        }
        guard applied else {
            try? InPlaceRekeyMarker.remove(for: path)
            throw InPlaceRekeyCheck.unappliedError(path: path)
        }
        FaultPause.at("rekey-committed")
        try InPlaceRekeyMarker.remove(for: path)
    }

    /// `BEGIN IMMEDIATE` (waiting the busy timeout for another writer), `sqlite3_rekey`,
    /// `COMMIT`, all with `synchronous = FULL`; then which key opens the file. `true`: the new
    /// one, and the writer (now keyed with it) stays. Otherwise the writer is closed (its write
    /// key, even its read key, may be the new one) and the caller opens it again: `false`, or
    /// the error of the `COMMIT`.
    private func runRekeyTransaction(_ connection: Connection, to newKey: SecretBytes) throws -> Bool {
        let db = Database(connection: connection)
        let synchronous = try db.scalar(Int.self, "PRAGMA synchronous") ?? 2
        // The pragma cannot change inside a transaction: before BEGIN, and back after COMMIT.
        if synchronous < 2 { try connection.executeScript("PRAGMA synchronous = FULL") }
        defer { if synchronous < 2, !connection.isClosed { try? connection.executeScript("PRAGMA synchronous = \(synchronous)") } }
        try connection.executeScript("BEGIN IMMEDIATE")
        var failure: (any Error)?
        do {
            // SQLCipher's page loop never looks at sqlite3_interrupt: an interrupt during it
            // is honoured after it, by the rollback; the COMMIT is the point of no return.
            try Interruption.undoable {
                try newKey.withBytes { try connection.rekey($0) }
                try Interruption.checkpoint()
            }
            try Interruption.committed { try connection.executeScript("COMMIT") }
        } catch {
            failure = error
        }
        if !connection.isAutocommit { try? connection.executeScript("ROLLBACK") }
        if Unlocking.opens(path: connection.path, key: newKey, configuration: connectionConfiguration) { return true }
        closeConnection()
        // A COMMIT that failed says why (a reader kept the lock: busy); a failed page loop says nothing.
        if let failure { throw failure }
        return false
    }
}
