import Foundation
import SQLCipherCore

// MARK: - DatabaseEvent

/// A ``DatabaseManager`` event: what ``DatabaseManagerDelegate`` hears, as a value, for
/// ``DatabaseManager/events()``. Each case is named after its delegate method
/// (`.didOpen` ↔ `databaseManagerDidOpen(_:)`, `.didFail` ↔ `databaseManager(_:didFail:)`).
public enum DatabaseEvent: Sendable, Equatable {
    /// A new database file was created and is open.
    case didCreate
    /// An existing database file was unlocked and is open.
    case didOpen
    /// A rekey is about to start; the file still has the old key.
    case willRekey
    /// A rekey succeeded, or a sibling manager was reopened with a new key.
    case didRekey
    /// A rekey failed; the database is intact and still opens with the old key.
    case didFailToRekey(DatabaseManagerError)
    /// A create, open, migration or statement failed for a reason other than the password.
    case didFail(DatabaseManagerError)
    /// The schema migrator is about to move `PRAGMA user_version`; nothing is migrated yet.
    case willMigrate(from: Int, to: Int)
    /// The schema migrator moved `PRAGMA user_version`.
    case didMigrate(from: Int, to: Int)
    /// The open database was closed — by ``DatabaseManager/close(forgettingKey:)``,
    /// ``DatabaseManager/reopen()`` or a failed migration — and the manager is no longer open.
    /// The key stays cached unless ``didForgetKey`` follows.
    case didClose
    /// The cached key was forgotten and zeroed by ``DatabaseManager/close(forgettingKey:)``: the
    /// database is locked, the next open needs the password or key again.
    case didForgetKey
    /// The open found the database in an older format than the linked SQLCipher writes, by
    /// itself (``DatabaseConfiguration/cipher`` left at the defaults: a SQLCipher 3 file on
    /// SQLCipher 4); right after ``didOpen``. Settings the app named raise no event:
    /// ``DatabaseFileFormat/isUpgradeAvailable`` tells for any file.
    case didFindOlderFormat(DatabaseFileFormat)
    /// A format upgrade from this format is about to start; the file is as it was.
    case willUpgradeFormat(DatabaseFileFormat)
    /// A format upgrade succeeded: the file is in the linked SQLCipher's format and open.
    case didUpgradeFormat(from: DatabaseFileFormat, to: DatabaseFileFormat)
    /// A format upgrade failed; the file is as it was and open again.
    case didFailToUpgradeFormat(DatabaseManagerError)

    /// Tells `delegate` about the event.
    func deliver(to delegate: any DatabaseManagerDelegate, from manager: DatabaseManager) {
        switch self {
        case .didCreate: delegate.databaseManagerDidCreate(manager)
        case .didOpen: delegate.databaseManagerDidOpen(manager)
        case .willRekey: delegate.databaseManagerWillRekey(manager)
        case .didRekey: delegate.databaseManagerDidRekey(manager)
        case .didFailToRekey(let error): delegate.databaseManager(manager, didFailToRekey: error)
        case .didFail(let error): delegate.databaseManager(manager, didFail: error)
        case .willMigrate(let old, let new): delegate.databaseManager(manager, willMigrateFrom: old, to: new)
        case .didMigrate(let old, let new): delegate.databaseManager(manager, didMigrateFrom: old, to: new)
        case .didClose: delegate.databaseManagerDidClose(manager)
        case .didForgetKey: delegate.databaseManagerDidForgetKey(manager)
        case .didFindOlderFormat(let format): delegate.databaseManager(manager, didFindOlderFormat: format)
        case .willUpgradeFormat(let format): delegate.databaseManager(manager, willUpgradeFormatFrom: format)
        case .didUpgradeFormat(let old, let new): delegate.databaseManager(manager, didUpgradeFormatFrom: old, to: new)
        case .didFailToUpgradeFormat(let error): delegate.databaseManager(manager, didFailToUpgradeFormat: error)
        }
    }
}

/// The open ``DatabaseManager/events()`` streams of one manager.
final class EventStreams: @unchecked Sendable {
    // @unchecked: `continuations` is read and written only under `lock`; yielding to an
    // AsyncStream continuation is thread-safe.
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<DatabaseEvent>.Continuation] = [:]

    func makeStream() -> AsyncStream<DatabaseEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DatabaseEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { self?.continuations[id] = nil } }
        lock.withLock { continuations[id] = continuation }
        return stream
    }

    func yield(_ event: DatabaseEvent) {
        for continuation in lock.withLock({ Array(continuations.values) }) { continuation.yield(event) }
    }

    func finish() {
        for continuation in lock.withLock({ Array(continuations.values) }) { continuation.finish() }
    }
}

extension DatabaseManager {
    /// The manager's events as an `AsyncSequence`, for code that lives on an actor — a
    /// `@MainActor` view model, say — and cannot be a delegate called on the manager's
    /// threads: `for await event in manager.events() { … }` in a `Task` started on that actor
    /// receives each event there, in order, after the manager has moved on (it never waits
    /// for the consumer). Each call gives a new stream, which ends when the manager is released.
    /// The delegate, if any, is told too.
    ///
    /// A stream sees the events after the call that made it: create, open, close, open, close
    /// gives `[.didCreate, .didClose, .didOpen, .didClose]`. ``DatabaseManager/close(forgettingKey:)`` on a closed
    /// manager fires nothing, so close, open, close gives `[.didOpen, .didClose]`. To tell a
    /// locked database, watch for ``DatabaseEvent/didClose`` (nothing is open) and
    /// ``DatabaseEvent/didForgetKey`` (the key is gone too).
    public func events() -> AsyncStream<DatabaseEvent> { eventStreams.makeStream() }
}
