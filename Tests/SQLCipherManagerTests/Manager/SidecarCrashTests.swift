import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The sidecar check against real crashes and real live connections: `FaultInjectionHelper`
/// is killed with SIGKILL inside a transaction that has spilled to the `-journal` or `-wal`,
/// or holds the database open in WAL mode while this process opens it.
@Suite("Sidecars: a crashed writer's journal / WAL and another process's live WAL", .serialized, .ownThread)
struct SidecarCrashTests {
    /// `test.db` keyed "old-secret" with the helper's `extra` table, in WAL or rollback mode.
    func makeDatabase(in dir: TemporaryDirectory, wal: Bool) throws {
        let manager = dir.manager()
        try manager.create(password: "old-secret")
        defer { manager.close() }
        try manager.execute("CREATE TABLE extra(id INTEGER PRIMARY KEY, value INTEGER, filler BLOB)")
        if wal { _ = try manager.scalar(String.self, "PRAGMA journal_mode = WAL") }
    }

    @Test(
        "kill -9 mid-transaction: the hot journal is rolled back / the -wal recovered, every committed row is there",
        arguments: [false, true])
    func crashedWriter(wal: Bool) throws {
        let dir = TemporaryDirectory()
        try makeDatabase(in: dir, wal: wal)
        let marker = dir.file("marker").path
        let run = try FaultInjection.run(
            "hang-in-transaction", in: dir.url, kill: .afterFileContains(path: marker, text: "SPILLED", delay: 0))
        #expect(run.killed, "\(run.errorOutput)")
        let sidecar = dir.file().path + (wal ? "-wal" : "-journal")
        #expect((DatabaseFile(path: sidecar).header(count: 1) ?? []).first.map { $0 != 0 } == true, "no hot \(sidecar)")
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        defer { manager.close() }
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM extra WHERE value >= 0") == 100)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM extra WHERE value < 0") == 0)
        #expect(try manager.integrityProblems().isEmpty)
    }

    @Test("another process holds the WAL database open: in use (no copy), it opens with every row, a wrong password changes nothing")
    func liveWALInAnotherProcess() throws {
        let dir = TemporaryDirectory()
        try makeDatabase(in: dir, wal: true)
        let path = dir.file().path
        var outcomes: [String] = []
        let run = try FaultInjection.run(
            "hold-open", in: dir.url,
            kill: .pauseWhenFileContains(
                path: dir.file("marker").path, text: "HOLDING",
                body: {
                    defer { _ = FileManager.default.createFile(atPath: dir.file("release").path, contents: nil) }
                    outcomes.append(Self.probeState(path))
                    let files = { [path, path + "-wal"].map { Fixture.bytes(URL(fileURLWithPath: $0)) } }
                    let before = files()
                    outcomes.append(thrownCase { try dir.manager().open(password: "wrong-password") })
                    outcomes.append(files() == before ? "unchanged" : "changed")
                    let manager = dir.manager()
                    outcomes.append(thrownCase { try manager.open(password: "old-secret") })
                    outcomes.append("\((try? manager.scalar(Int.self, "SELECT count(*) FROM extra")) ?? -1) rows")
                    manager.close()
                }))
        #expect(!run.killed && run.status == 0, "\(run.errorOutput)")
        #expect(outcomes == ["inUse", "incorrectPasswordOrSettings", "unchanged", "none", "50 rows"])
    }

    static func probeState(_ path: String) -> String {
        guard let probe = try? Connection(path: path, mode: .readWrite) else { return "no probe" }
        defer {
            probe.unlockMainFile()
            probe.close()
        }
        return (try? SidecarCheck.state(probe, journal: path + "-journal", wal: path + "-wal")).map { "\($0)" } ?? "error"
    }
}
