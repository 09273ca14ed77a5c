import Foundation
import Synchronization
import TestSupport
import Testing

/// ``OwnThreadTrait``: at most two bodies of blocking tests run at once, whatever thread the
/// runtime gives them.
@Suite("Blocking tests: at most two at once", .ownThread)
struct OwnThreadTests {
    /// How many of this suite's bodies are running now, and the most seen.
    static let running = Mutex((now: 0, most: 0))

    @Test("no more than two bodies run at the same time", arguments: 0..<6)
    func atMostTwo(_ index: Int) async throws {
        let now = Self.running.withLock { state in
            state.now += 1
            state.most = max(state.most, state.now)
            return state.now
        }
        // Suspended, a body holds no thread: without the slots all six would be inside at once.
        try await Task.sleep(for: .milliseconds(40))
        Self.running.withLock { $0.now -= 1 }
        #expect(now <= 2, "case \(index) ran beside \(now - 1) others")
    }

}
