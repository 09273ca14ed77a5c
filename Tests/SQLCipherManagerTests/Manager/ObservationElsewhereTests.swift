import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Commits the writer's hooks cannot see: another connection of this process, another process
/// running this library, stock SQLCipher (Python's sqlcipher3) and the `sqlcipher` shell. The
/// file watch wakes the check of the writer's `PRAGMA data_version`; every observation runs again.
@Suite("Observation: commits by other connections and processes")
struct ObservationElsewhereTests {
    static let modes: [JournalMode?] = [nil, .wal]

    /// `test.db` with the password "old-secret" and a table `note`, open in `mode`.
    static func makeManager(_ dir: TemporaryDirectory, mode: JournalMode?) throws -> DatabaseManager {
        let manager = dir.manager { $0.journalMode = mode }
        try manager.create(password: "old-secret")
        try manager.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT)")
        return manager
    }

    static func count(_ manager: DatabaseManager) -> ObservationProbe<Int> {
        ObservationProbe(manager.observe { db in try db.decodeScalar(Int.self, "SELECT count(*) FROM note") })
    }

    @Test("another connection of this process", arguments: modes)
    func otherConnection(mode: JournalMode?) async throws {
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let probe = Self.count(manager)
        #expect(await probe.wait { $0.values == [0] })
        let other = dir.manager { $0.journalMode = mode }
        try other.open(password: "old-secret")
        try other.execute("INSERT INTO note(title) VALUES ('from another connection')")
        #expect(await probe.waitValue { $0 == 1 })
        other.close()
        probe.cancel()
    }

    @Test("another process running this library (FaultInjectionHelper exec-sql)", arguments: modes)
    func otherProcessOurLibrary(mode: JournalMode?) async throws {
        let helper = try #require(FaultInjection.helperURL, "FaultInjectionHelper is built beside the test runner")
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let probe = Self.count(manager)
        #expect(await probe.wait { $0.values == [0] })
        try Data("INSERT INTO note(title) VALUES ('one'); INSERT INTO note(title) VALUES ('two');".utf8)
            .write(to: dir.file("script.sql"))
        let output = await Deadline.value(seconds: 120) { try? runProcess(helper, ["exec-sql", dir.url.path]) }
        #expect(output??.status == 0, "\(String(describing: output??.stderr))")
        #expect(await probe.waitValue { $0 == 2 })
        probe.cancel()
    }

    @Test("stock SQLCipher in another process (Python's sqlcipher3)", arguments: modes)
    func otherProcessPython(mode: JournalMode?) async throws {
        _ = try Interop.require(Interop.python, "Python with sqlcipher3 (.venv)")
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let probe = Self.count(manager)
        #expect(await probe.wait { $0.values == [0] })
        let request = PythonRequest(
            path: dir.file().path, key: .password("old-secret"), pragmas: PythonRequest.ourSettings,
            statements: [("INSERT INTO note(title) VALUES (?)", [.text("from python")])])
        let result = await Deadline.value(seconds: 120) { try? request.run() }
        #expect(result??.isSuccess == true, "\(String(describing: result))")
        #expect(await probe.waitValue { $0 == 1 })
        probe.cancel()
    }

    @Test("the sqlcipher shell in another process", arguments: modes)
    func otherProcessShell(mode: JournalMode?) async throws {
        _ = try Interop.require(Interop.sqlcipherShell, "the sqlcipher shell")
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let probe = Self.count(manager)
        #expect(await probe.wait { $0.values == [0] })
        let script = "PRAGMA key = 'old-secret';\nPRAGMA kdf_iter = 4000;\nINSERT INTO note(title) VALUES ('from the shell');\n"
        let output = await Deadline.value(seconds: 120) { try? sqlcipherShell(dir.file().path, script) }
        #expect(output??.status == 0, "\(String(describing: output??.stderr))")
        #expect(await probe.waitValue { $0 == 1 })
        probe.cancel()
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

/// A view model isolated to the main actor, in Swift 6 mode without `@unchecked`: it consumes
/// an observation with `for try await` and keeps the latest value.
// README begin
@MainActor
final class NoteListViewModel {
    private(set) var titles: [String] = []

    /// Keeps `titles` current: the rows now, then after each commit that changes them (this
    /// app's, another connection's, another process's). The loop ends when the database closes.
    func watch(_ manager: DatabaseManager) -> Task<Void, any Error> {
        Task { @MainActor in
            let observation = manager.observe { db in
                try db.fetchAll(String.self, "SELECT title FROM note ORDER BY id")
            }
            for try await titles in observation.removingDuplicates() {
                self.titles = titles
            }
        }
    }
}
// README end

@Suite("Observation from a @MainActor view model")
struct ObservationMainActorTests {
    @Test @MainActor func viewModelSeesCommits() async throws {
        let dir = TemporaryDirectory()
        let manager = try ObservationElsewhereTests.makeManager(dir, mode: .wal)
        let viewModel = NoteListViewModel()
        let task = viewModel.watch(manager)
        try manager.execute("INSERT INTO note(title) VALUES ('a')")
        let other = dir.manager { $0.journalMode = .wal }
        try other.open(password: "old-secret")
        try other.execute("INSERT INTO note(title) VALUES ('b')")
        let deadline = Date(timeIntervalSinceNow: 60)
        while viewModel.titles != ["a", "b"], Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(viewModel.titles == ["a", "b"])
        other.close()
        manager.close()
        // Closing ends the sequence: the loop returns without an error.
        try await task.value
    }
}
