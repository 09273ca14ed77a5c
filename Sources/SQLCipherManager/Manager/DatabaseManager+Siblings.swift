import Foundation
import SQLCipherCore
import SQLCipherQuery

// MARK: - Sibling managers

/// Every manager of this process that has a database open, by the identity (device and
/// inode) of the open file: managers on the same file are *siblings*. A key change through
/// one of them pauses the others, and afterwards opens them again with the new key.
final class SiblingRegistry: @unchecked Sendable {
    // @unchecked: `entries` is read and written only under `lock`, which is never held while
    // calling out.
    static let shared = SiblingRegistry()

    private struct Entry {
        weak var manager: DatabaseManager?
        let identity: FileIdentity
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    /// Records `manager`'s open file, or forgets it (`nil`: closed).
    func update(_ manager: DatabaseManager, identity: FileIdentity?) {
        lock.withLock {
            if let identity {
                entries[ObjectIdentifier(manager)] = Entry(manager: manager, identity: identity)
            } else {
                entries[ObjectIdentifier(manager)] = nil
            }
        }
    }

    /// The other managers with the file of this identity open.
    func siblings(of manager: DatabaseManager, identity: FileIdentity) -> [DatabaseManager] {
        lock.withLock {
            entries.compactMap { key, entry in
                key != ObjectIdentifier(manager) && entry.identity == identity ? entry.manager : nil
            }
        }
    }
}

extension DatabaseManager {
    /// The siblings of this manager's open file, each held under its own lock (waiting up to
    /// the busy timeout for a sibling that is inside a call, such as a transaction, to finish)
    /// with its connection closed. Release them with ``reopenSiblings(_:key:cipher:)`` or
    /// ``restoreSiblings(_:)``.
    ///
    /// - Throws: ``DatabaseManagerError/busy(path:underlying:)`` when a sibling stays busy;
    ///   then no sibling is held.
    func pauseSiblings(of connection: Connection) throws -> [DatabaseManager] {
        guard let identity = connection.identity else { return [] }
        var paused: [DatabaseManager] = []
        for sibling in SiblingRegistry.shared.siblings(of: self, identity: identity) {
            guard sibling.lock.lock(before: Date(timeIntervalSinceNow: configuration.busyTimeoutSeconds)) else {
                restoreSiblings(paused)
                throw DatabaseManagerError.busy(
                    path: connection.path,
                    underlying: SQLiteError(
                        extendedCode: .busy,
                        message: "another DatabaseManager of this process kept the database busy for longer than the busy timeout"))
            }
            // Its file may have changed while we waited for it.
            guard sibling.database?.connection.identity == identity else {
                release(sibling)
                continue
            }
            sibling.closeConnection()
            paused.append(sibling)
        }
        return paused
    }

    /// After a key change: opens each paused sibling again with the new key (derived once, for
    /// all of them) and cipher settings, caches the key, tells its delegate `didRekeyDatabase`, and lets it go. A
    /// sibling that cannot be opened stays closed and hears `didFail`.
    func reopenSiblings(_ siblings: [DatabaseManager], key: SecretBytes, derived: KeyDerivation.Derived?, cipher: CipherOptions) {
        for sibling in siblings {
            defer { release(sibling) }
            sibling.configuration.cipher = cipher
            sibling.cachedKey = key
            sibling.derivedKey = derived
            guard let path = sibling.databasePath else { continue }
            do {
                sibling.database = Database(
                    connection: try Unlocking.connect(
                        path: path, mode: .readWrite, key: derived?.rawKey ?? key, configuration: sibling.configuration))
                sibling.configureReaders()
                sibling.notify(.didRekey)
            } catch {
                let error = DatabaseManagerError(diagnosing: error, path: path)
                sibling.notify(.didFail(error))
            }
        }
    }

    /// After a failed key change: opens each paused sibling again with its own cached key, and lets it go.
    func restoreSiblings(_ siblings: [DatabaseManager]) {
        for sibling in siblings {
            defer { release(sibling) }
            guard let path = sibling.databasePath, let key = sibling.derivedKey?.rawKey ?? sibling.cachedKey else { continue }
            sibling.database =
                (try? Unlocking.connect(
                    path: path, mode: .readWrite, key: key, configuration: sibling.configuration)).map(Database.init)
            sibling.configureReaders()
        }
    }

    /// Lets a paused sibling go; the events it raised meanwhile wait for this manager's lock
    /// to be released (``notify(_:)``), so no delegate is called while either lock is held.
    private func release(_ sibling: DatabaseManager) {
        let events = sibling.takePendingEventsIfOutermost()
        sibling.lock.unlock()
        if lock.isHeldByCurrentThread {
            pendingEvents += events
        } else {
            for (manager, event) in events { manager.deliver(event) }
        }
    }

    // MARK: - A file re-keyed by another program

    /// A page that did not read on the writer. `SQLITE_NOTADB`:
    /// ``DatabaseManagerError/keyChanged(path:)`` when this manager's key no longer unlocks the
    /// file, because another program re-keyed it in place (a file is never replaced while
    /// another connection has it open): the connection is closed and the delegate hears it.
    /// When the key still unlocks it, and for `SQLITE_CORRUPT` (a data page that fails its
    /// HMAC check), a page is damaged: ``DatabaseManagerError/corrupt(path:underlying:)``, the
    /// manager stays open. `nil` for any other error. Called under the lock.
    func pageFailureError(of db: Database, after error: SQLiteError) -> DatabaseManagerError? {
        let path = db.connection.path
        switch error.code {
        case .corrupt:
            removeLeftoverJournal(db)
            return .corrupt(path: path, underlying: error)
        case .notADatabase:
            let unlocks = keyStillUnlocks(db) { keyStillUnlocks(path: path) }
            let diagnosed = DatabaseManagerError.unreadablePage(error, path: path, keyStillUnlocks: unlocks)
            guard case .keyChanged = diagnosed else {
                removeLeftoverJournal(db)
                return diagnosed
            }
            closeConnection()
            notify(.didFail(diagnosed))
            return diagnosed
        default:
            return nil
        }
    }

    /// After a write met a page that did not decrypt, SQLCipher 4 leaves the pager in its error
    /// state, and SQLite then leaves the `-journal` beside the file with a zeroed header (never
    /// replayed, but a file the write made). In `DELETE` mode, outside a transaction, going to
    /// `PERSIST` and back makes SQLite delete it under a RESERVED lock, as a commit would.
    private func removeLeftoverJournal(_ db: Database) {
        let connection = db.connection
        guard connection.isAutocommit, FileSystem.status(of: connection.path + "-journal") != nil,
            (try? connection.text("PRAGMA journal_mode"))?.lowercased() == "delete"
        else { return }
        try? connection.executeScript("PRAGMA journal_mode = PERSIST; PRAGMA journal_mode = DELETE")
    }

    /// Whether the key of `db`, which just met `SQLITE_NOTADB`, still unlocks its file. Outside a
    /// transaction `db` reads the schema again itself (the pager left the error state of the
    /// failed read when that statement ended): page 1 decrypts with the connection's key or not.
    /// Inside a transaction, or when that read fails, a fresh connection decides (`fresh`).
    func keyStillUnlocks(_ db: Database, fresh: () -> Bool) -> Bool {
        if db.connection.isAutocommit, (try? db.connection.executeScript("SELECT count(*) FROM sqlite_master")) != nil {
            return true
        }
        return fresh()
    }

    /// `true` when a fresh read-only connection keyed like the writer reads the schema of `path`.
    /// Called under the lock.
    func keyStillUnlocks(path: String) -> Bool {
        guard let key = derivedKey?.rawKey ?? cachedKey,
            let probe = try? Unlocking.unlockedConnection(path: path, mode: .readOnly, key: key, configuration: configuration)
        else { return false }
        probe.close()
        return true
    }
}
