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
    /// with its connection closed. Release them with ``reopenSiblings(_:key:derived:cipher:event:)`` or
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
    /// all of them) and cipher settings (`nil`: the file's, unchanged), caches the key, tells its
    /// delegate `event` (`didRekeyDatabase`, or `didUpgradeFormat`), and lets it go. A sibling
    /// that cannot be opened stays closed and hears `didFail`.
    func reopenSiblings(
        _ siblings: [DatabaseManager], key: SecretBytes, derived: KeyDerivation.Derived?, cipher: CipherOptions?,
        event: DatabaseEvent = .didRekey
    ) {
        for sibling in siblings {
            defer { release(sibling) }
            if let cipher {
                sibling.configuration.cipher = cipher
                sibling.foundCipher = nil
            }
            sibling.cachedKey = key
            sibling.derivedKey = derived
            guard let path = sibling.databasePath else { continue }
            do {
                sibling.database = Database(
                    connection: try Unlocking.connect(
                        path: path, mode: .readWrite, key: derived?.rawKey ?? key, configuration: sibling.connectionConfiguration))
                sibling.configureReaders()
                sibling.notify(event)
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
                    path: path, mode: .readWrite, key: key, configuration: sibling.connectionConfiguration)).map(Database.init)
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

    /// ``DatabaseManagerError/keyChanged(path:)`` when `error` is `SQLITE_NOTADB`: page 1 no
    /// longer decrypts with this connection's key, because another program re-keyed the file in
    /// place (a file is never replaced while another connection has it open). The connection is
    /// closed and the delegate hears it. `nil` otherwise.
    func keyChangeError(of db: Database, after error: SQLiteError) -> DatabaseManagerError? {
        guard error.code == .notADatabase else { return nil }
        let changed = DatabaseManagerError.keyChanged(path: db.connection.path)
        closeConnection()
        notify(.didFail(changed))
        return changed
    }
}
