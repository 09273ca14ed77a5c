import Foundation
import TestSupport
import Testing

@testable import SQLCipherManager

/// A delegate that, on each `will…` event, asks another thread what the manager looks like
/// (`probe`) and waits for the answer, with a deadline: a delegate called under the manager's
/// lock, or after the work, would record "blocked" or the state after the work.
private final class ProbingDelegate: DatabaseManagerDelegate, @unchecked Sendable {
    // @unchecked: `records` is read and written only under `lock`.
    private let lock = NSLock()
    private var records: [String] = []
    let probe: @Sendable (DatabaseManager) -> String

    init(probe: @escaping @Sendable (DatabaseManager) -> String) { self.probe = probe }

    var seen: [String] { lock.withLock { records } }

    private func record(_ text: String) { lock.withLock { records.append(text) } }

    private func probeElsewhere(_ manager: DatabaseManager, _ event: String) {
        let probe = probe
        record("\(event): " + (Deadline.run(seconds: 10) { probe(manager) } ?? "blocked"))
    }

    func databaseManagerWillRekey(_ manager: DatabaseManager) { probeElsewhere(manager, "willRekey") }
    func databaseManagerDidRekey(_ manager: DatabaseManager) { record("didRekey") }
    func databaseManager(_ manager: DatabaseManager, didFailToRekey error: DatabaseManagerError) {
        record("didFailToRekey(\(error.caseName))")
    }
    func databaseManager(_ manager: DatabaseManager, willMigrateFrom oldVersion: Int, to newVersion: Int) {
        probeElsewhere(manager, "willMigrate(\(oldVersion), \(newVersion))")
    }
    func databaseManager(_ manager: DatabaseManager, didMigrateFrom oldVersion: Int, to newVersion: Int) {
        record("didMigrate(\(oldVersion), \(newVersion))")
    }
    func databaseManager(_ manager: DatabaseManager, didFail error: DatabaseManagerError) { record("didFail(\(error.caseName))") }
    func databaseManagerDidClose(_ manager: DatabaseManager) { record("didClose") }
}

@Suite("A will… event reaches the delegate before the work, outside the manager's lock", .ownThread)
struct WillEventTests {
    /// What another thread sees through the manager: the rows, and whether the old password is still the key.
    private static let rowsAndKey: @Sendable (DatabaseManager) -> String = { manager in
        let rows = (try? manager.scalar(Int.self, "SELECT count(*) FROM t")).map(String.init) ?? "unreadable"
        return "\(rows) rows, old password \(manager.isCurrentPassword("old-password-1") ? "current" : "replaced")"
    }

    @Test("willRekey: another thread reads every row and the old key is still current", arguments: [false, true])
    func willRekeyComesBeforeTheRekey(newSettings: Bool) throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "old-password-1")
        try manager.execute("CREATE TABLE t(x)")
        try manager.execute("INSERT INTO t VALUES (1), (2), (3)")
        let delegate = ProbingDelegate(probe: Self.rowsAndKey)
        manager.delegate = delegate
        try manager.rekey(to: .password("new-password-2"), options: newSettings ? .fast(kdfIterations: 5000) : nil)
        #expect(delegate.seen == ["willRekey: 3 rows, old password current", "didRekey"])
        #expect(!manager.isCurrentPassword("old-password-1"))
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 3)
    }

    @Test("willMigrate: another thread still reads the old schema version")
    func willMigrateComesBeforeTheMigration() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "old-password-1")
        let delegate = ProbingDelegate { manager in "version \((try? manager.schemaVersion).map(String.init) ?? "unreadable")" }
        manager.delegate = delegate
        var migrator = VersionedSchemaMigrator()
        migrator.register(version: 1) { try $0.execute("CREATE TABLE t(x)") }
        migrator.register(version: 2) { try $0.execute("INSERT INTO t VALUES (1)") }
        try manager.migrate(using: migrator)
        #expect(delegate.seen == ["willMigrate(0, 2): version 0", "didMigrate(0, 2)"])
        #expect(try manager.schemaVersion == 2)
    }

    @Test("a close between willRekey and the work: the rekey is refused with notOpen, and said so once")
    func aCloseAfterWillRekeyEndsTheFlowWithItsOutcome() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "old-password-1")
        try manager.execute("CREATE TABLE t(x)")
        let delegate = ProbingDelegate { manager in
            manager.close()
            return "closed"
        }
        manager.delegate = delegate
        #expect(throws: DatabaseManagerError.notOpen) { try manager.rekey(to: .password("new-password-2")) }
        // didClose is heard on the probing thread, inside the willRekey call that waits for it.
        #expect(delegate.seen == ["didClose", "willRekey: closed", "didFailToRekey(notOpen)"])
        try manager.open(password: "old-password-1")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test("a rekey refused by its checks raises no event")
    func aRefusedRekeyRaisesNoEvent() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        let delegate = ProbingDelegate(probe: Self.rowsAndKey)
        manager.delegate = delegate
        #expect(throws: DatabaseManagerError.notOpen) { try manager.rekey(to: .password("new-password-2")) }
        #expect(delegate.seen.isEmpty)
    }

    @Test("key-slot rekey and disable: the slot files are as they were when willRekey arrives", arguments: [false, true])
    func keySlotFlowsWriteNothingBeforeWillRekey(disabling: Bool) throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdKeySlotManager()
        let next = dir.slotFile().path + ".next"
        let lock = dir.slotFile().path + ".scm-lock"
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: next))
        let delegate = ProbingDelegate { _ in
            let debris = FileManager.default.fileExists(atPath: next) ? "debris kept" : "debris removed"
            return debris + (FileManager.default.fileExists(atPath: lock) ? ", lock taken" : ", no lock")
        }
        manager.delegate = delegate
        if disabling {
            try manager.keySlots.disable(password: "secret")
        } else {
            try manager.keySlots.rekey()
        }
        #expect(delegate.seen == ["willRekey: debris kept, no lock", "didRekey"])
        #expect(!FileManager.default.fileExists(atPath: next))
    }

}
