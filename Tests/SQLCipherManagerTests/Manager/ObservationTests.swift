import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `observe(…)`: the current value, then a fresh one after each commit that touched what the
/// query reads, in both journal modes.
@Suite("Observation: in-process commits")
struct ObservationTests {
    static let modes: [JournalMode?] = [nil, .wal]

    /// A manager on a new database with the tables `note` and `other`.
    static func makeManager(_ dir: TemporaryDirectory, mode: JournalMode?) throws -> DatabaseManager {
        let manager = dir.manager { $0.journalMode = mode }
        try manager.create(password: "secret")
        try manager.executeScript("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT); CREATE TABLE other(id INTEGER PRIMARY KEY, x)")
        return manager
    }

    static func count(_ manager: DatabaseManager) -> DatabaseObservation<Int> {
        manager.observe { db in try db.decodeScalar(Int.self, "SELECT count(*) FROM note") }
    }

    @Test("the current value at once, then one after each commit", arguments: modes)
    func currentValueThenCommits(mode: JournalMode?) async throws {
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let probe = ObservationProbe(manager.observeAll("SELECT title FROM note ORDER BY id"))
        #expect(await probe.wait { $0.values.count == 1 })
        #expect(probe.values.first?.isEmpty == true)
        try manager.execute("INSERT INTO note(title) VALUES ('a')")
        #expect(await probe.waitValue { $0.isEmpty == false })
        try await manager.write { db in
            try db.execute("INSERT INTO note(title) VALUES ('b')")
            try db.execute("UPDATE note SET title = 'A' WHERE title = 'a'")
        }
        #expect(await probe.waitValue { $0.map { $0.string("title") } == ["A", "b"] })
        probe.cancel()
    }

    @Test("decoded values and scalars", arguments: modes)
    func decodedAndScalar(mode: JournalMode?) async throws {
        struct Note: Decodable, Sendable, Equatable {
            let id: Int
            let title: String
        }
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let notes = ObservationProbe(manager.observeAll(Note.self, "SELECT id, title FROM note ORDER BY id"))
        let newest = ObservationProbe(manager.observeScalar(String.self, "SELECT max(title) FROM note"))
        #expect(await newest.wait { $0.values.first == .some(nil) })
        try manager.execute("INSERT INTO note(title) VALUES (?)", "hello")
        #expect(await notes.waitValue { $0 == [Note(id: 1, title: "hello")] })
        #expect(await newest.waitValue { $0 == "hello" })
        notes.cancel()
        newest.cancel()
    }

    @Test("a rolled-back transaction and writes to other tables do not run the query again", arguments: modes)
    func unrelatedWritesDoNotRerun(mode: JournalMode?) async throws {
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let probe = ObservationProbe(Self.count(manager))
        #expect(await probe.wait { $0.values == [0] })
        for index in 0..<20 { try manager.execute("INSERT INTO other(x) VALUES (?)", index) }
        try manager.execute("DELETE FROM other")  // the truncate optimisation: no update hook
        _ = try? await manager.write { db in
            try db.execute("INSERT INTO note(title) VALUES ('rolled back')")
            throw CancellationError()
        }
        try manager.execute("INSERT INTO note(title) VALUES ('kept')")
        #expect(await probe.wait { $0.values.last == 1 })
        // Let a stray run show up if one were scheduled.
        try await Task.sleep(for: .milliseconds(300))
        #expect(manager.observations.totalRuns == 2)
        #expect(probe.values == [0, 1])
        probe.cancel()
    }

    @Test("DELETE without WHERE, and a schema change, are seen", arguments: modes)
    func truncateAndSchemaChange(mode: JournalMode?) async throws {
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        try manager.execute("INSERT INTO note(title) VALUES ('a')")
        let probe = ObservationProbe(Self.count(manager))
        #expect(await probe.wait { $0.values == [1] })
        try manager.execute("DELETE FROM note")
        #expect(await probe.waitValue { $0 == 0 })
        let runs = manager.observations.totalRuns
        try manager.execute("CREATE TABLE unrelated(x)")
        #expect(await probe.wait { _ in manager.observations.totalRuns > runs })
        probe.cancel()
    }

    @Test("a burst of commits ends with the value a fresh query reads", arguments: modes)
    func burstEndsWithLatestValue(mode: JournalMode?) async throws {
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let probe = ObservationProbe(Self.count(manager).removingDuplicates())
        #expect(await probe.wait { $0.values == [0] })
        let written = await Deadline.value(seconds: 120) {
            (try? (0..<300).forEach { try manager.execute("INSERT INTO note(title) VALUES (?)", "n\($0)") }) != nil
        }
        #expect(written == true)
        #expect(await probe.waitValue { $0 == 300 })
        try await Task.sleep(for: .milliseconds(200))
        let fresh = try manager.decodeScalar(Int.self, "SELECT count(*) FROM note")
        #expect(probe.values.last == fresh)
        // Coalesced, in order, without duplicates.
        #expect(probe.values == probe.values.sorted())
        #expect(Set(probe.values).count == probe.values.count)
        probe.cancel()
    }

    /// A pause of 200 ms ends a burst here, so that commits slowed down by a sanitizer still
    /// come well within one; the default is 1 ms (BENCHMARKS.md, `--only observation`).
    @Test("a burst of commits runs each observed query once, after the last commit", arguments: modes)
    func burstRunsOnce(mode: JournalMode?) async throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager {
            $0.journalMode = mode
            $0.observationQuietPeriod = .milliseconds(200)
        }
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT)")
        let probes = (0..<3).map { _ in ObservationProbe(Self.count(manager)) }
        for probe in probes { #expect(await probe.wait { $0.values == [0] }) }
        for burst in 1...3 {
            let runs = manager.observations.totalRuns
            for row in 0..<20 { try manager.execute("INSERT INTO note(title) VALUES (?)", "b\(burst) \(row)") }
            for probe in probes { #expect(await probe.waitValue { $0 == burst * 20 }) }
            #expect(manager.observations.totalRuns == runs + probes.count, "burst \(burst)")
        }
        #expect(probes.allSatisfy { $0.values == [0, 20, 40, 60] })
        for probe in probes { probe.cancel() }
    }

    @Test("ending the iteration stops the observation and frees its thread, watch and connection", arguments: modes)
    func cancellationFreesEverything(mode: JournalMode?) async throws {
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let probe = ObservationProbe(Self.count(manager))
        #expect(await probe.wait { $0.values == [0] })
        let monitor = try #require(manager.observations.activeMonitor)
        probe.cancel()
        #expect(await probe.wait { $0.hasEnded })
        #expect(await probe.wait { _ in manager.observations.count == 0 })
        #expect(manager.observations.activeMonitor == nil)
        #expect(await Deadline.value(seconds: 60) { monitor.waitUntilExited(before: Date(timeIntervalSinceNow: 60)) } == true)
        try manager.execute("INSERT INTO note(title) VALUES ('after')")
        // Every reader connection is back in the pool: a close does not wait for one.
        #expect(await Deadline.value(seconds: 60) { manager.close() } != nil)
    }

    @Test("close ends the sequence; a rekey does not", arguments: modes)
    func closeEndsRekeyContinues(mode: JournalMode?) async throws {
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: mode)
        let probe = ObservationProbe(Self.count(manager))
        #expect(await probe.wait { $0.values == [0] })
        let rekeyed = await Deadline.value(seconds: 120) { (try? manager.rekey(to: .password("second"))) != nil }
        #expect(rekeyed == true)
        try manager.execute("INSERT INTO note(title) VALUES ('after rekey')")
        #expect(await probe.waitValue { $0 == 1 })
        #expect(probe.hasEnded == false)
        manager.close()
        #expect(await probe.wait { $0.hasEnded })
        #expect(probe.error == nil)
        #expect(manager.observations.count == 0)
        // An observation of a closed manager ends at once.
        let closed = ObservationProbe(Self.count(manager))
        #expect(await closed.wait { $0.hasEnded })
        #expect(closed.values.isEmpty)
    }

    @Test("a query that fails ends the sequence with its error")
    func failingQueryThrows() async throws {
        let dir = TemporaryDirectory()
        let manager = try Self.makeManager(dir, mode: .wal)
        let probe = ObservationProbe(manager.observeAll("SELECT * FROM missing"))
        #expect(await probe.wait { $0.hasEnded })
        #expect(probe.error is SQLiteError)
    }
}

extension Row {
    fileprivate func string(_ column: String) -> String? { value(column, as: String.self) }
}
