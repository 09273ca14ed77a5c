import Foundation
import SQLCipherManager

/// Consumes an observation in a Task of its own and keeps every value it receives, for the
/// observation tests to wait on with generous deadlines (a long synchronous test of another
/// suite may hold the cooperative threads for minutes in the full run).
final class ObservationProbe<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `received`, `ended` and `failure` are read and written only under `lock`.
    private let lock = NSLock()
    private var received: [Value] = []
    private var ended = false
    private var failure: (any Error)?
    private(set) var task: Task<Void, Never>!

    init(_ observation: DatabaseObservation<Value>) {
        task = Task.detached { [self] in
            do {
                for try await value in observation { lock.withLock { received.append(value) } }
            } catch {
                lock.withLock { failure = error }
            }
            lock.withLock { ended = true }
        }
    }

    var values: [Value] { lock.withLock { received } }
    var hasEnded: Bool { lock.withLock { ended } }
    var error: (any Error)? { lock.withLock { failure } }

    /// Waits until `condition` holds (checked first, so a late check after a blocked pool
    /// still sees what came), at most `seconds`.
    func wait(seconds: Double = 60, until condition: (ObservationProbe) -> Bool) async -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while true {
            if condition(self) { return true }
            if Date() > deadline { return condition(self) }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits for a value for which `matches` holds.
    func waitValue(seconds: Double = 60, _ matches: @escaping (Value) -> Bool) async -> Bool {
        await wait(seconds: seconds) { $0.values.contains(where: matches) }
    }

    func cancel() { task.cancel() }
}
