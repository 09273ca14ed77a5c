import Foundation
import TestSupport
import Testing

@testable import SQLCipherManager

/// A delegate that, on each event it watches, starts a thread which writes through the manager
/// and waits for it (with a timeout, so that a delegate called under the manager's lock makes
/// the test fail instead of hanging).
private final class WaitingDelegate: DatabaseManagerDelegate, @unchecked Sendable {
    // @unchecked: `finished` is read and written only under `lock`.
    private let lock = NSLock()
    private var finished: [String] = []
    let table: String

    init(table: String) { self.table = table }

    /// The events whose helper thread finished its write in time.
    var completed: [String] { lock.withLock { finished } }

    func databaseManagerDidOpen(_ manager: DatabaseManager) { writeElsewhere(manager, "opened") }
    func databaseManagerDidRekey(_ manager: DatabaseManager) { writeElsewhere(manager, "rekeyed") }

    private func writeElsewhere(_ manager: DatabaseManager, _ event: String) {
        let done = DispatchSemaphore(value: 0)
        let table = table
        let thread = Thread {
            _ = try? manager.execute("INSERT INTO \(table)(note) VALUES (?)", event)
            done.signal()
        }
        thread.start()
        if done.wait(timeout: .now() + 5) == .success { lock.withLock { finished.append(event) } }
    }
}

@Suite("The delegate is called after the manager's lock is released", .ownThread)
struct DelegateOutsideLockTests {
    @Test("a delegate that waits for another thread's write neither deadlocks nor times out")
    func delegateWaitsForAnotherThread() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE log(note TEXT)")
        manager.close()
        let delegate = WaitingDelegate(table: "log")
        manager.delegate = delegate
        try manager.open(password: "secret")
        try manager.rekey(to: .password("another secret"))
        #expect(delegate.completed == ["opened", "rekeyed"])
        #expect(try manager.scalar(String.self, "SELECT group_concat(note) FROM log") == "opened,rekeyed")
    }

    @Test("a sibling's delegate hears the rekey once both managers' locks are released")
    func siblingDelegateOutsideBothLocks() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE log(note TEXT)")
        let sibling = dir.manager()
        try sibling.open(password: "secret")
        let delegate = WaitingDelegate(table: "log")
        sibling.delegate = delegate
        try manager.rekey(to: .password("another secret"))
        #expect(delegate.completed == ["rekeyed"])
    }
}
