import Foundation
import SQLCipherCore

// MARK: - DatabaseEvent

/// A ``DatabaseManager`` event: what ``DatabaseManagerDelegate`` hears, as a value, for
/// ``DatabaseManager/events()``.
public enum DatabaseEvent: Sendable, Equatable {
    /// A new database file was created and is open (`databaseManagerDidCreateDatabase`).
    case created
    /// An existing database file was unlocked and is open (`databaseManagerDidOpenDatabase`).
    case opened
    /// A rekey is about to start (`databaseManagerWillRekeyDatabase`).
    case willRekey
    /// A rekey succeeded, or a sibling manager was reopened with a new key (`databaseManagerDidRekeyDatabase`).
    case didRekey
    /// A rekey failed; the database is intact (`didEncounterRekeyError`).
    case rekeyFailed(DatabaseManagerError)
    /// A create, open, migration or statement failed for a reason other than the password (`didEncounterDatabaseError`).
    case databaseError(DatabaseManagerError)
    /// The schema migrator is about to move `PRAGMA user_version` (`willMigrateSchemaFrom`).
    case willMigrate(from: Int, to: Int)
    /// The schema migrator moved `PRAGMA user_version` (`didMigrateSchemaFrom`).
    case didMigrate(from: Int, to: Int)
    /// The open database was closed — by ``DatabaseManager/close()``, ``DatabaseManager/close(forgettingKey:)``,
    /// ``DatabaseManager/reopen()`` or a failed migration — and the manager is no longer open
    /// (`databaseManagerDidCloseDatabase`). The key stays cached unless ``keyForgotten`` follows.
    case closed
    /// The cached key was forgotten and zeroed by ``DatabaseManager/close(forgettingKey:)``: the
    /// database is locked, the next open needs the password or key again (`databaseManagerDidForgetKey`).
    case keyForgotten

    /// Two events are equal when they are the same case with equal values; errors compare by
    /// their description (``DatabaseManagerError`` carries errors that are not `Equatable`).
    public static func == (lhs: DatabaseEvent, rhs: DatabaseEvent) -> Bool {
        switch (lhs, rhs) {
        case (.created, .created), (.opened, .opened), (.willRekey, .willRekey), (.didRekey, .didRekey), (.closed, .closed),
            (.keyForgotten, .keyForgotten):
            true
        case (.rekeyFailed(let a), .rekeyFailed(let b)), (.databaseError(let a), .databaseError(let b)):
            a.description == b.description
        case (.willMigrate(let a, let b), .willMigrate(let c, let d)), (.didMigrate(let a, let b), .didMigrate(let c, let d)):
            a == c && b == d
        default: false
        }
    }

    /// Tells `delegate` about the event.
    func deliver(to delegate: any DatabaseManagerDelegate, from manager: DatabaseManager) {
        switch self {
        case .created: delegate.databaseManagerDidCreateDatabase(manager)
        case .opened: delegate.databaseManagerDidOpenDatabase(manager)
        case .willRekey: delegate.databaseManagerWillRekeyDatabase(manager)
        case .didRekey: delegate.databaseManagerDidRekeyDatabase(manager)
        case .rekeyFailed(let error): delegate.databaseManager(manager, didEncounterRekeyError: error)
        case .databaseError(let error): delegate.databaseManager(manager, didEncounterDatabaseError: error)
        case .willMigrate(let old, let new): delegate.databaseManager(manager, willMigrateSchemaFrom: old, to: new)
        case .didMigrate(let old, let new): delegate.databaseManager(manager, didMigrateSchemaFrom: old, to: new)
        case .closed: delegate.databaseManagerDidCloseDatabase(manager)
        case .keyForgotten: delegate.databaseManagerDidForgetKey(manager)
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
    /// gives `[.created, .closed, .opened, .closed]`. ``DatabaseManager/close()`` on a closed
    /// manager fires nothing, so close, open, close gives `[.opened, .closed]`. To tell a
    /// locked database, watch for ``DatabaseEvent/closed`` (nothing is open) and
    /// ``DatabaseEvent/keyForgotten`` (the key is gone too).
    public func events() -> AsyncStream<DatabaseEvent> { eventStreams.makeStream() }
}
