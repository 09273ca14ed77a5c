import Foundation
import SQLCipherCore
import SQLCipherQuery

// MARK: - Observation

extension DatabaseManager {
    /// Observes the value `fetch` reads: the current value at once, then a fresh one after
    /// each commit that changed a table `fetch` read — made by this manager, another connection
    /// or another process. See <doc:Observation>.
    ///
    /// ```swift
    /// for try await count in manager.observe({ db in try db.decodeScalar(Int.self, "SELECT count(*) FROM note") }) {
    ///     print(count)
    /// }
    /// ```
    ///
    /// `fetch` runs in a read transaction on one of the manager's threads (a reader connection
    /// in WAL mode, never waiting for a write; the writer in rollback-journal mode), once when
    /// iteration starts and again after each such commit; commits that come while it runs give
    /// one more run, so the last value is never older than the last commit. The sequence ends
    /// when the database is closed (``close(forgettingKey:)``, ``reopen()``), or
    /// throws what `fetch` throws. It goes on across a key change. Ending the iteration
    /// (`break`, the Task cancelled) stops the observation.
    public func observe<Value: Sendable>(_ fetch: @escaping @Sendable (Database) throws -> Value) -> DatabaseObservation<Value> {
        DatabaseObservation(manager: self, fetch: fetch)
    }

    // MARK: - Implementation

    /// Runs an observation's query in a read transaction, with the tables it read.
    func observedRead<T>(interruptible handle: InterruptHandle, _ body: (Database) throws -> T) throws -> (T, Set<String>) {
        try read(interruptible: handle) { db in try db.connection.recordingReads { try body(db) } }
    }

    /// Starts an observation of `client`.
    func startObserving(_ client: any ObservationClient) {
        guard let path = databasePath else { return client.finish(DatabaseManagerError.notConfigured) }
        observations.add(client, path: path, check: { [weak self] in self?.checkExternalChanges() ?? true })
    }

    /// The file watch's look: when the writer's `data_version` moved, another connection or
    /// process committed, and every observation runs again. `true` when settled (it moved, the
    /// writer committed since the last look, or the database is closed).
    func checkExternalChanges() -> Bool {
        // The writer committed since the last look: the event was most likely its own, and the
        // writer's lock is left alone (the last baseline still holds: its own commits never move it).
        if observations.takeOwnCommits() { return true }
        guard !lock.isHeldByCurrentThread,
            let (connection, version) = try? withWriterConnection({ db in
                (ObjectIdentifier(db.connection), try db.connection.int64("PRAGMA data_version") ?? 0)
            })
        else { return true }
        let look = observations.look(at: version, on: connection)
        if look.moved { observations.changedElsewhere() }
        return look.moved || look.ownCommits
    }

    /// After a writer closure: tells the observations what its commits changed.
    func reportCommits(of db: Database) {
        guard let changes = db.connection.changeTracker?.takeCommitted() else { return }
        observations.committed(changes)
    }
}
