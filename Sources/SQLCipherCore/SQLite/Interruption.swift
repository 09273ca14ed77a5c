internal import CSQLCipher
import Foundation

// MARK: - Interruption

/// A process-wide request to stop (Ctrl-C, SIGTERM), made from any thread and honoured only
/// where the work can still be undone: inside an ``undoable(_:)`` scope (an export before its
/// install is journaled, a key change before its `COMMIT`, a read). There every open
/// connection gets `sqlite3_interrupt` (a running statement stops with `SQLITE_INTERRUPT` at
/// its next VDBE step, its transaction rolled back by SQLite), and every later
/// ``Statement/step()`` and ``checkpoint()`` throws the same error, so the flow unwinds
/// through its own error path (copies removed, journal and lock released) on its own thread.
/// Outside such a scope — after a point of no return, in ``committed(_:)`` — nothing throws:
/// the work finishes, and a request that came meanwhile stops the next scope as it starts.
/// Nothing here ever exits the process.
///
/// Scopes belong to the thread that enters them. For a program that ends after an interrupt
/// (cipherdb): the request is never withdrawn.
package enum Interruption {
    /// The open connection handles, so that ``request()`` interrupts only live ones: a handle is
    /// removed under the same lock before `sqlite3_close_v2`, so `sqlite3_interrupt` (safe from
    /// another thread) never sees a closed one.
    private final class State: @unchecked Sendable {
        // @unchecked: every field is read and written only under `lock`.
        let lock = NSLock()
        var requested = false
        /// `true` once a request stopped work (a step or checkpoint threw, a scope refused to start).
        var stoppedWork = false
        /// How many threads are inside an undoable scope now (and not in a committed one).
        var undoableThreads = 0
        var handles: Set<UInt> = []
    }

    /// One thread's nested scopes: `true` for undoable, `false` for committed. Work is undoable
    /// inside an undoable scope unless a committed one encloses it: past a point of no return,
    /// nothing nested may stop.
    private final class Scopes {
        var stack: [Bool] = []
        var isUndoable: Bool { stack.contains(true) && !stack.contains(false) }
    }

    private static let state = State()
    private static let scopesKey = "SQLCipherManager.Interruption.scopes"

    /// `true` once ``request()`` was called.
    package static var isRequested: Bool { state.lock.withLock { state.requested } }

    /// `true` once a request stopped work: it threw from a step, a checkpoint or the start of
    /// a scope (then the work it stopped was undone), rather than waiting for a commit.
    package static var hasStoppedWork: Bool { state.lock.withLock { state.stoppedWork } }

    /// Asks the undoable work to stop (`sqlite3_interrupt` on every open connection while any
    /// thread is in an undoable scope) and makes every later step in such a scope throw
    /// `SQLITE_INTERRUPT`. Safe from any thread.
    package static func request() {
        state.lock.withLock {
            state.requested = true
            guard state.undoableThreads > 0 else { return }
            for handle in state.handles {
                if let pointer = OpaquePointer(bitPattern: handle) { sqlite3_interrupt(pointer) }
            }
        }
    }

    /// `true` (and recorded in ``hasStoppedWork``) when a request is pending and this thread's
    /// work is undoable: the caller stops here.
    static func stopsHere() -> Bool {
        guard isRequested, scopes.isUndoable else { return false }
        state.lock.withLock { state.stoppedWork = true }
        return true
    }

    /// Throws `SQLITE_INTERRUPT` once an interrupt was requested while this thread is in an
    /// undoable scope: a safe point between steps.
    package static func checkpoint() throws {
        guard stopsHere() else { return }
        throw interruptedError
    }

    /// Runs `body` as work that an interrupt may stop: it throws `SQLITE_INTERRUPT` at once
    /// when a request is pending, and from its next step or checkpoint when one comes. Inside
    /// a ``committed(_:)`` scope it is committed work too.
    package static func undoable<T>(_ body: () throws -> T) throws -> T {
        try scoped(true) {
            try checkpoint()
            return try body()
        }
    }

    /// A safe point just before a point of no return (a slot file written, say): throws
    /// `SQLITE_INTERRUPT` when a request is pending, unless committed work encloses it.
    package static func safePoint() throws {
        try undoable {}
    }

    /// Runs `body` past a point of no return (an install journaled, a `COMMIT`): no interrupt
    /// stops it, even inside an undoable scope; a pending request waits for the next scope.
    package static func committed<T>(_ body: () throws -> T) rethrows -> T {
        try scoped(false, body)
    }

    /// Records that a step or compile failed after a request in an undoable scope:
    /// `SQLITE_INTERRUPT` itself, or the error a SQL function (`sqlcipher_export`) makes of it.
    /// (Outside one, the failure is reported as what it is.)
    static func noteFailedStep() {
        guard isRequested, scopes.isUndoable else { return }
        state.lock.withLock { state.stoppedWork = true }
    }

    /// The error an interrupted step or checkpoint throws.
    static let interruptedError = SQLiteError(extendedCode: .interrupt, message: "interrupted")

    static func register(_ handle: OpaquePointer) {
        state.lock.withLock { _ = state.handles.insert(UInt(bitPattern: handle)) }
    }

    /// Removes `handle`, then runs `close` under the lock, so no interrupt reaches a closed handle.
    static func unregister(_ handle: OpaquePointer, closing close: () -> Void) {
        state.lock.withLock {
            state.handles.remove(UInt(bitPattern: handle))
            close()
        }
    }

    // MARK: - Scopes

    private static var scopes: Scopes {
        let dictionary = Thread.current.threadDictionary
        if let scopes = dictionary[scopesKey] as? Scopes { return scopes }
        let scopes = Scopes()
        dictionary[scopesKey] = scopes
        return scopes
    }

    private static func scoped<T>(_ undoable: Bool, _ body: () throws -> T) rethrows -> T {
        let scopes = scopes
        let before = scopes.isUndoable
        scopes.stack.append(undoable)
        let inside = scopes.isUndoable
        adjust(from: before, to: inside)
        defer {
            scopes.stack.removeLast()
            adjust(from: inside, to: scopes.isUndoable)
        }
        return try body()
    }

    /// Counts this thread in or out of the undoable ones; entering with a request pending
    /// interrupts the connections at once (the scope's first long step must stop too).
    private static func adjust(from before: Bool, to after: Bool) {
        guard before != after else { return }
        state.lock.withLock {
            state.undoableThreads += after ? 1 : -1
            guard after, state.requested else { return }
            for handle in state.handles {
                if let pointer = OpaquePointer(bitPattern: handle) { sqlite3_interrupt(pointer) }
            }
        }
    }
}
