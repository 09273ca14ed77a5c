import Foundation
import SQLCipherQuery

// MARK: - ManagerLock

/// The manager's recursive lock, which also knows which thread holds it and which threads are
/// running one of the manager's closures (`read`, `write`, `transaction`, `withDatabase`), on
/// which connection.
///
/// That knowledge is what lets a call made from inside a closure be routed or refused instead
/// of deadlocking: a nested read runs on the closure's own connection, and a call that would
/// wait for the closure to end (a close, a key change, a write from inside a read) throws
/// ``DatabaseManagerError/reentrantCall(_:inside:)`` at once. Threads are told apart by their
/// Foundation `Thread` object, which lives as long as the thread; an entry is removed when its
/// closure returns, so a later thread can never inherit one.
final class ManagerLock: @unchecked Sendable {
    // @unchecked: `owner` and `depth` are read and written only under `condition`, `scopes`
    // only under `scopeLock`.

    /// A closure of the manager running on a thread.
    enum Scope {
        /// A read closure, on a reader connection (WAL) or on the writer (rollback journal);
        /// `nil` while its connection is being found.
        case reader(Database?)
        /// A closure with the writer: `write`, `transaction`, `withDatabase`.
        case writer
    }

    /// The name of a closure kind, for ``DatabaseManagerError/reentrantCall(_:inside:)``.
    static func name(of scope: Scope) -> String {
        switch scope {
        case .reader: return "read"
        case .writer: return "write, transaction or withDatabase"
        }
    }

    private struct ThreadScopes {
        var stack: [Scope] = []
        var closeRequested = false
        /// Whether a requested close also forgets the key: `true` when any request said so.
        var forgetsKey = false
    }

    private let condition = NSCondition()
    private var owner: ObjectIdentifier?
    private var depth = 0
    private let scopeLock = NSLock()
    private var scopes: [ObjectIdentifier: ThreadScopes] = [:]

    private static var currentThread: ObjectIdentifier { ObjectIdentifier(Thread.current) }

    func lock() {
        let me = Self.currentThread
        condition.lock()
        while let holder = owner, holder != me { condition.wait() }
        owner = me
        depth += 1
        condition.unlock()
    }

    /// ``lock()``, giving up at `limit`; `false` when another thread still holds it then.
    func lock(before limit: Date) -> Bool {
        let me = Self.currentThread
        condition.lock()
        defer { condition.unlock() }
        while let holder = owner, holder != me {
            if !condition.wait(until: limit), owner != nil, owner != me { return false }
        }
        owner = me
        depth += 1
        return true
    }

    func unlock() {
        condition.lock()
        depth -= 1
        if depth == 0 {
            owner = nil
            condition.signal()
        }
        condition.unlock()
    }

    /// `true` when the calling thread holds the lock once, not nested: its next ``unlock()`` releases it.
    var isHeldOnceByCurrentThread: Bool {
        let me = Self.currentThread
        return condition.withLock { owner == me && depth == 1 }
    }

    /// `true` when the calling thread holds the lock (a flow, a writer closure).
    var isHeldByCurrentThread: Bool {
        let me = Self.currentThread
        return condition.withLock { owner == me }
    }

    /// The innermost closure of the manager the calling thread is running, if any.
    var innermostScope: Scope? {
        let me = Self.currentThread
        return scopeLock.withLock { scopes[me]?.stack.last }
    }

    /// Runs `body` marked as inside `scope` on the calling thread; when this was the thread's
    /// outermost closure and ``requestClose(forgettingKey:)`` was called inside it, runs `close` after it.
    func within<T>(_ scope: Scope, close: (_ forgettingKey: Bool) -> Void, _ body: () throws -> T) rethrows -> T {
        let me = Self.currentThread
        scopeLock.withLock { scopes[me, default: ThreadScopes()].stack.append(scope) }
        defer {
            let closes = scopeLock.withLock { () -> (requested: Bool, forgetsKey: Bool) in
                scopes[me]?.stack.removeLast()
                guard scopes[me]?.stack.isEmpty == true else { return (false, false) }
                defer { scopes[me] = nil }
                return (scopes[me]?.closeRequested ?? false, scopes[me]?.forgetsKey ?? false)
            }
            if closes.requested { close(closes.forgetsKey) }
        }
        return try body()
    }

    /// Sets the innermost scope of the calling thread (inside ``within(_:close:_:)``), once the
    /// closure's connection is known.
    func settle(_ scope: Scope) {
        let me = Self.currentThread
        scopeLock.withLock {
            guard let last = scopes[me]?.stack.indices.last else { return }
            scopes[me]?.stack[last] = scope
        }
    }

    /// Asks for a close once the calling thread's outermost closure returns; `false` when the
    /// thread is in no closure (then the caller closes now).
    func requestClose(forgettingKey: Bool) -> Bool {
        let me = Self.currentThread
        return scopeLock.withLock {
            guard scopes[me] != nil else { return false }
            scopes[me]?.closeRequested = true
            if forgettingKey { scopes[me]?.forgetsKey = true }
            return true
        }
    }
}
