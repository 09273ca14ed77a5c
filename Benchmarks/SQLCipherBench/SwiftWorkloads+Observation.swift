import Foundation
import SQLCipherManager
import Synchronization

// MARK: - Observation

extension SwiftWorkloads {
    /// A new WAL database with the tables `bench` (written) and `other` (observed, never written).
    private func observationManager(_ name: String) throws -> (DatabaseManager, URL) {
        let url = fixtures.scratch(name)
        Fixtures.remove(url.path)
        var walConfiguration = configuration
        walConfiguration.journalMode = .wal
        let manager = DatabaseManager(url: url, configuration: walConfiguration)
        try manager.create(password: Fixtures.password)
        try manager.withDatabase { db in try db.execute(Fixtures.createSQL) }
        try manager.withDatabase { db in try db.execute("CREATE TABLE other(id INTEGER PRIMARY KEY, v)") }
        return (manager, url)
    }

    /// Consumes `observation` in a Task and records when each value arrived.
    private static func consume(_ observation: DatabaseObservation<Int>) -> Arrivals {
        let arrivals = Arrivals()
        Task.detached {
            for try await value in observation { arrivals.record(value) }
        }
        return arrivals
    }

    /// `rows` commits, each one INSERT into `bench`, each awaited by an observation of
    /// `count(*) FROM bench`: the median time from just before the commit to the value's
    /// arrival in the consuming Task (commit included).
    func observationLatencyLocal() throws -> Measured {
        let (manager, url) = try observationManager("observe-local")
        defer {
            manager.close()
            Fixtures.remove(url.path)
        }
        let arrivals = Self.consume(manager.observe { try $0.decodeScalar(Int.self, "SELECT count(*) FROM bench") })
        guard arrivals.wait(for: 0) != nil else { throw BenchError.failed("no first value") }
        var latencies: [Double] = []
        for row in 1...job.rows {
            let start = Date().timeIntervalSince1970
            try manager.withDatabase { db in try db.execute("INSERT INTO bench(id, t1) VALUES (?, 'x')", row) }
            guard let arrived = arrivals.wait(for: row) else { throw BenchError.failed("no value for commit \(row)") }
            latencies.append(arrived - start)
        }
        return Measured(seconds: latencies.sorted()[latencies.count / 2], checksum: Int64(job.rows))
    }

    /// The same with the commits made by another process (this executable, `--commit-writer`):
    /// it takes the wall clock just before each commit and prints it; the latency is the value's
    /// arrival here minus that time. The change is seen through the file watch and `data_version`.
    func observationLatencyOtherProcess() throws -> Measured {
        let (manager, url) = try observationManager("observe-process")
        defer {
            manager.close()
            Fixtures.remove(url.path)
        }
        let arrivals = Self.consume(manager.observe { try $0.decodeScalar(Int.self, "SELECT count(*) FROM bench") })
        guard arrivals.wait(for: 0) != nil else { throw BenchError.failed("no first value") }
        let writer = try CommitWriter(path: url.path)
        defer { writer.finish() }
        var latencies: [Double] = []
        for row in 1...job.rows {
            let start = try writer.commit(row)
            guard let arrived = arrivals.wait(for: row) else { throw BenchError.failed("no value for commit \(row)") }
            latencies.append(arrived - start)
        }
        return Measured(seconds: latencies.sorted()[latencies.count / 2], checksum: Int64(job.rows))
    }

    /// `rows` commits (one INSERT into `bench` each) while `count` observations of
    /// `count(*) FROM other` run (0: none): what observations of untouched tables cost a write.
    /// `synchronous = NORMAL` (no fsync per WAL commit): the commit's CPU work, which the hooks
    /// and the file watch add to, rather than the disk's flush time.
    func writesObserved() throws -> Measured {
        let (manager, url) = try observationManager("observe-writes")
        defer {
            manager.close()
            Fixtures.remove(url.path)
        }
        try manager.withDatabase { db in try db.execute("PRAGMA synchronous = NORMAL") }
        let observers = (0..<job.count).map { _ in
            Self.consume(manager.observe { try $0.decodeScalar(Int.self, "SELECT count(*) FROM other") })
        }
        for arrivals in observers where arrivals.wait(for: 0) == nil { throw BenchError.failed("no first value") }
        let measured = try Measured.time {
            for row in 1...job.rows { try manager.withDatabase { db in try db.execute("INSERT INTO bench(id, t1) VALUES (?, 'x')", row) } }
            return Int64(job.rows)
        }
        // Only the first value each: nothing the writes touched was observed.
        if observers.contains(where: { $0.count != 1 }) { throw BenchError.failed("an observation of `other` ran again") }
        return measured
    }
}

extension SwiftWorkloads {
    /// `rows` commits in bursts of 50 (one INSERT into `bench` each, in one loop) while `count`
    /// observations of `count(*) FROM bench` run (0: none); after each burst, waits until every
    /// observation has the fresh count. Notes how many times each query ran per burst (issue
    /// 24's goal: at most once), counted in the query's own closure.
    func burstsObserved() throws -> Measured {
        let (manager, url) = try observationManager("observe-bursts")
        defer {
            manager.close()
            Fixtures.remove(url.path)
        }
        try manager.withDatabase { db in try db.execute("PRAGMA synchronous = NORMAL") }
        let counters = (0..<job.count).map { _ in RunCounter() }
        let observers = counters.map { counter in
            Self.consume(
                manager.observe { db in
                    counter.add()
                    return try db.decodeScalar(Int.self, "SELECT count(*) FROM bench")
                })
        }
        for arrivals in observers where arrivals.wait(for: 0) == nil { throw BenchError.failed("no first value") }
        let size = 50
        var perBurst: [(runs: Int, split: Bool)] = []
        var measured = try Measured.time {
            for burst in 0..<(job.rows / size) {
                let before = counters.map(\.count)
                var split = false
                var last = ContinuousClock.now
                for row in 1...size {
                    try manager.withDatabase { db in try db.execute("INSERT INTO bench(id, t1) VALUES (?, 'x')", burst * size + row) }
                    let now = ContinuousClock.now
                    split = split || (row > 1 && now - last >= .milliseconds(1))
                    last = now
                }
                for arrivals in observers where arrivals.wait(for: (burst + 1) * size) == nil {
                    throw BenchError.failed("no value after burst \(burst)")
                }
                perBurst += zip(counters, before).map { ($0.count - $1, split) }
            }
            return Int64(job.rows / size * size)
        }
        if !perBurst.isEmpty { measured.note = Self.burstNote(perBurst) }
        return measured
    }

    /// How often each query ran per burst; a burst with a pause of 1 ms or more between two
    /// commits (the writer descheduled) is two bursts to the observations.
    private static func burstNote(_ perBurst: [(runs: Int, split: Bool)]) -> String {
        let whole = perBurst.filter { !$0.split }.map(\.runs)
        let mean = Double(perBurst.map(\.runs).reduce(0, +)) / Double(perBurst.count)
        let most = whole.max() ?? 0
        return "runs of each observed query per burst: mean \(Samples.fixed(mean, 2)); "
            + "\(perBurst.count - whole.count) of \(perBurst.count) split by a pause ≥ 1 ms; "
            + "most in an unsplit burst \(most) (goal ≤ 1: \(most <= 1 ? "met" : "MISSED"))"
    }
}

/// How many times an observed query ran.
final class RunCounter: Sendable {
    private let runs = Atomic(0)

    func add() { runs.add(1, ordering: .relaxed) }
    var count: Int { runs.load(ordering: .relaxed) }
}

/// When each value of an observation arrived (wall clock, seconds since 1970).
final class Arrivals: @unchecked Sendable {
    // @unchecked: `times` is read and written only under `condition`.
    private let condition = NSCondition()
    private var times: [Int: Double] = [:]

    func record(_ value: Int) {
        let now = Date().timeIntervalSince1970
        condition.withLock {
            times[value] = now
            condition.broadcast()
        }
    }

    var count: Int { condition.withLock { times.count } }

    /// When `value` arrived, waiting up to 60 s for it.
    func wait(for value: Int) -> Double? {
        let deadline = Date(timeIntervalSinceNow: 60)
        return condition.withLock {
            while times[value] == nil { if !condition.wait(until: deadline) { break } }
            return times[value]
        }
    }
}

/// The other process of ``SwiftWorkloads/observationLatencyOtherProcess()``: this executable
/// run as `--commit-writer <path>`, told on its standard input which row to insert.
final class CommitWriter {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    init(path: String) throws {
        process.executableURL = Child.executableURL
        process.arguments = ["--commit-writer", path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        _ = try line()  // READY: open, its first commit made
    }

    /// Has the writer commit `row`; returns the wall clock it took just before the commit.
    func commit(_ row: Int) throws -> Double {
        input.fileHandleForWriting.write(Data("\(row)\n".utf8))
        guard let start = Double(try line()) else { throw BenchError.failed("the writer said no time") }
        return start
    }

    private func line() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let text = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return text
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { throw BenchError.failed("the writer exited") }
            buffer.append(more)
        }
    }

    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The writer's side: opens the database, then for each row number on standard input takes
    /// the wall clock, commits one INSERT and prints the time.
    static func serve(path: String) -> Int32 {
        var configuration = DatabaseConfiguration()
        configuration.journalMode = .wal
        let manager = DatabaseManager(url: URL(fileURLWithPath: path), configuration: configuration)
        do {
            try manager.open(password: Fixtures.password)
            FileHandle.standardOutput.write(Data("READY\n".utf8))
            while let text = readLine(), let row = Int(text) {
                let start = Date().timeIntervalSince1970
                try manager.withDatabase { db in try db.execute("INSERT INTO bench(id, t1) VALUES (?, 'x')", row) }
                FileHandle.standardOutput.write(Data("\(start)\n".utf8))
            }
            manager.close()
            return 0
        } catch {
            FileHandle.standardError.write(Data("commit writer: \(error)\n".utf8))
            return 1
        }
    }
}
