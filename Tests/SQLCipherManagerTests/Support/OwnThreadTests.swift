import Foundation
import Synchronization
import TestSupport
import Testing

/// ``OwnThreadTrait``: the bodies of blocking tests run on threads of their own.
@Suite("Blocking tests on their own threads", .ownThread)
struct OwnThreadTests {
    @Test("a synchronous body runs on its own thread, not on the cooperative pool")
    func synchronousBody() {
        #expect(Thread.current.name == OwnThreadExecutor.threadName)
    }

    @Test("every case of a parameterized test runs on its own thread", arguments: 0..<3)
    func parameterized(_ index: Int) {
        #expect(Thread.current.name == OwnThreadExecutor.threadName)
    }

    @Test("a task started on a lent thread starts there every time")
    func everyStart() async throws {
        // With a new thread per task, about 1 start in 140 ran on the global executor instead.
        let onPool = Mutex(0)
        for _ in 0..<400 {
            try await OwnThreadSlots.shared.run {
                if Self.threadName() != OwnThreadExecutor.threadName { onPool.withLock { $0 += 1 } }
            }
        }
        #expect(onPool.withLock { $0 } == 0)
    }

    @Test("an async body resumes on its thread after a suspension")
    func asyncBody() async throws {
        try await Task.sleep(for: .milliseconds(1))
        #expect(Self.threadName() == OwnThreadExecutor.threadName)
    }

    private static func threadName() -> String? { Thread.current.name }
}
