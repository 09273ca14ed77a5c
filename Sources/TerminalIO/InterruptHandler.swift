import Dispatch
import Foundation

// MARK: - InterruptHandler

/// Handles Ctrl-C (SIGINT) and SIGTERM outside the signal context: the signals are ignored at
/// the process level and delivered to a dispatch source instead, whose handler may take locks
/// and print. The handler never calls `exit()` while another thread may be inside SQLite or
/// libcrypto (that raced their destructors: a crash in about 1 of 10 interrupted runs). It
/// restores the terminal's echo and calls `stop`, which asks the work to stop at a safe point
/// on its own thread; that thread cleans up (or finishes a change past its point of no return)
/// and the program returns its own status.
///
/// The handler ends the process itself, with `_exit` (no destructors run), only while the main
/// thread waits for input (``waitingForInput(_:)``: a password prompt, SQL from stdin), which a
/// signal ignored at the process level does not wake, and before which nothing was changed.
/// A second signal ends it at once the same way: what that leaves (a partial copy beside its
/// file) the next command removes, as after a `kill -9`.
public enum InterruptHandler {
    /// Keeps the dispatch sources alive for the life of the process, and the first signal.
    private final class State: @unchecked Sendable {
        // @unchecked: `list`, `received` and `inputWaits` are read and written only under `lock`.
        let lock = NSLock()
        var list: [any DispatchSourceSignal] = []
        var received: Int32?
        var inputWaits = 0
    }

    private static let state = State()

    /// The first interrupt signal received (SIGINT or SIGTERM), `nil` when none came.
    public static var received: Int32? { state.lock.withLock { state.received } }

    /// The exit status for a program ended by `signal`: 128 + its number, as shells expect.
    public static func exitCode(for signal: Int32) -> Int32 { 128 + signal }

    /// Installs the handler for SIGINT and SIGTERM. Call once, from the main thread, at start-up.
    /// `stop` runs on the handler's thread at the first signal; `waitingMessage`, when the
    /// program then waits for input, is printed before it ends with 128 + the signal.
    public static func install(
        stop: @escaping @Sendable (_ signal: Int32) -> Void, waitingMessage: @escaping @Sendable (_ signal: Int32) -> String
    ) {
        for number in POSIXTerminal.interruptSignals {
            POSIXTerminal.ignore(signal: number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handle(number, stop: stop, waitingMessage: waitingMessage) }
            source.resume()
            state.lock.withLock { state.list.append(source) }
        }
    }

    /// Runs `body`, a wait for input with no change under way: an interrupt that comes before
    /// or during it ends the program (`_exit`, 128 + the signal) instead of waiting for it.
    public static func waitingForInput<T>(_ body: () throws -> T) rethrows -> T {
        state.lock.withLock { state.inputWaits += 1 }
        defer { state.lock.withLock { state.inputWaits -= 1 } }
        return try body()
    }

    /// Installs `cleanup` for SIGINT and SIGTERM, then `exit(128 + signal)` from the handler's
    /// thread: only for a program whose work `cleanup` itself ends under a lock first (the
    /// login demo closes its manager, which waits for a running call), never for one whose
    /// main thread may be inside SQLite meanwhile (cipherdb uses the other `install`).
    public static func install(_ cleanup: @escaping @Sendable (_ signal: Int32) -> Void) {
        for number in POSIXTerminal.interruptSignals {
            POSIXTerminal.ignore(signal: number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                EchoControl.restore()
                cleanup(number)
                exit(exitCode(for: number))
            }
            source.resume()
            state.lock.withLock { state.list.append(source) }
        }
    }

    private static func handle(
        _ number: Int32, stop: @Sendable (Int32) -> Void, waitingMessage: @Sendable (Int32) -> String
    ) {
        let first = state.lock.withLock { () -> Bool in
            guard state.received == nil else { return false }
            state.received = number
            return true
        }
        EchoControl.restore()
        guard first else { POSIXTerminal.endImmediately(exitCode(for: number)) }
        stop(number)
        // The main thread now stops at a safe point and returns; this thread only ends a wait
        // for input, which the ignored signal does not wake.
        while true {
            if state.lock.withLock({ state.inputWaits > 0 }) {
                Console.warn(waitingMessage(number))
                POSIXTerminal.endImmediately(exitCode(for: number))
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
