import Foundation
import SQLCipherCore

// MARK: - ObservationCenter

/// The running observations of one manager: tells them about the commits the writer made
/// (with the tables they changed), about commits made elsewhere (another connection or
/// process: every observation runs again), and ends them when the database closes. While one
/// runs, an ``ExternalChangeMonitor`` watches the file for the commits made elsewhere.
final class ObservationCenter: @unchecked Sendable {
    // @unchecked: `clients`, `regions`, `monitor`, `knownVersion` and the commit counts are
    // read and written only under `lock`.
    private let lock = NSLock()
    private var clients: [ObjectIdentifier: any ObservationClient] = [:]
    /// What each observation's last run read (kept here: a commit checks them all under one lock).
    private var regions: [ObjectIdentifier: ObservationRegion] = [:]
    private var monitor: ExternalChangeMonitor?
    /// The writer's `PRAGMA data_version` at the last look, and which connection gave it.
    private var knownVersion: (connection: ObjectIdentifier, version: Int64)?
    /// The writer's commits so far, and their count at the last look at `data_version`.
    private var ownCommits = 0
    private var ownCommitsSeen = 0

    /// Adds an observation and runs it. The first one starts the file watch (`check` is what
    /// it runs after each file event and each poll), whose first look at `data_version` comes
    /// before the query's first run: a commit made elsewhere in between is not missed.
    func add(_ client: any ObservationClient, path: String, check: @escaping @Sendable () -> Bool) {
        let started = lock.withLock { () -> ExternalChangeMonitor? in
            clients[ObjectIdentifier(client)] = client
            regions[ObjectIdentifier(client)] = .everything
            guard monitor == nil else { return nil }
            let started = ExternalChangeMonitor(path: path, check: check)
            monitor = started
            return started
        }
        if let started {
            started.start(then: { client.schedule() })
        } else {
            client.schedule()
        }
    }

    func remove(_ client: any ObservationClient) {
        let stopped = lock.withLock { () -> ExternalChangeMonitor? in
            clients[ObjectIdentifier(client)] = nil
            regions[ObjectIdentifier(client)] = nil
            guard clients.isEmpty else { return nil }
            defer {
                monitor = nil
                knownVersion = nil
            }
            return monitor
        }
        stopped?.stop()
    }

    /// How many observations run, and whether the file watch runs (for tests).
    var count: Int { lock.withLock { clients.count } }
    var activeMonitor: ExternalChangeMonitor? { lock.withLock { monitor } }
    /// How many times the running observations' queries ran (for tests and benchmarks).
    var totalRuns: Int { lock.withLock { Array(clients.values) }.reduce(0) { $0 + $1.runs } }

    /// The writer committed changes to `access`: the observations it touched run again.
    func committed(_ access: TableAccess) {
        let touched = lock.withLock { () -> [any ObservationClient] in
            ownCommits += 1
            var touched: [any ObservationClient] = []
            for (id, region) in regions where region.isTouched(by: access) {
                if let client = clients[id] { touched.append(client) }
            }
            return touched
        }
        for client in touched { client.scheduleAfterCommit() }
    }

    /// What `client`'s last run read.
    func update(_ region: ObservationRegion, for client: any ObservationClient) {
        lock.withLock {
            guard regions[ObjectIdentifier(client)] != nil else { return }
            regions[ObjectIdentifier(client)] = region
        }
    }

    /// Something changed that the writer's hooks did not see: every observation runs again.
    func changedElsewhere() {
        for client in lock.withLock({ Array(clients.values) }) { client.schedule() }
    }

    /// `true` when the writer committed since the last look (then that counts as a look);
    /// `false` before the first look, which takes the baseline.
    func takeOwnCommits() -> Bool {
        lock.withLock {
            guard knownVersion != nil else { return false }
            defer { ownCommitsSeen = ownCommits }
            return ownCommits != ownCommitsSeen
        }
    }

    /// Takes the writer's `data_version`: `moved` when it changed since the last look on the
    /// same connection (another connection or process committed); `ownCommits` when the writer
    /// committed since the last look.
    func look(at version: Int64, on connection: ObjectIdentifier) -> (moved: Bool, ownCommits: Bool) {
        lock.withLock {
            defer {
                knownVersion = (connection, version)
                ownCommitsSeen = ownCommits
            }
            let own = ownCommits != ownCommitsSeen
            guard let known = knownVersion, known.connection == connection else { return (false, own) }
            return (known.version != version, own)
        }
    }

    /// The database closed: every observation ends.
    func finishAll() {
        for client in lock.withLock({ Array(clients.values) }) { client.finish(nil) }
    }
}
