import Foundation

/// Runs a body that could deadlock on a thread of its own and waits for it with a deadline, so
/// that a deadlock fails the test (`nil`: the body did not return in time) instead of hanging
/// the run. A body that never returns leaves its thread blocked; the run goes on.
enum Deadline {
    static func run<T: Sendable>(seconds: Double = 20, _ body: @escaping @Sendable () -> T) -> T? {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.set(body())
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return box.value
    }

    /// ``run(seconds:_:)`` awaited: the waiting is done on a thread of its own, so the awaiting
    /// Task leaves its cooperative thread free meanwhile (async work inside `body` needs one).
    static func value<T: Sendable>(seconds: Double = 20, _ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: run(seconds: seconds, body)) }.start()
        }
    }

    private final class Box<T: Sendable>: @unchecked Sendable {
        // @unchecked: `stored` is written once before `done` is signalled and read after the wait.
        private let lock = NSLock()
        private var stored: T?
        func set(_ value: T) { lock.withLock { stored = value } }
        var value: T? { lock.withLock { stored } }
    }
}
