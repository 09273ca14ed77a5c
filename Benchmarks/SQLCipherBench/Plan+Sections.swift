import Foundation

// MARK: - Sections

extension Plan {
    var sections: [Section] {
        [seed, open, api, migration, settings, diagnosis, sidecars, keySlots, concurrency, backup, records, observation]
    }

    /// Swift public API vs raw C, both encrypted; raw C plaintext for the encryption overhead.
    var api: Section {
        var rows: [Comparison] = []
        let variants: [(String, Job.Workload, Job.Workload, Double?)] = [
            ("insert %@ rows, 1 transaction", .insert, .insert, 1.05),
            ("insert %@ rows, 1 transaction (prepare + execute)", .insertPrepared, .insert, 1.05),
            ("read all %@ rows (forEachRow, text as String)", .readView, .readAll, 1.10),
            ("read all %@ rows (forEachRow, text as UTF-8 bytes)", .readBytes, .readAll, 1.10),
            ("read all %@ rows (forEachRow + row.row: a Row per row)", .readAll, .readAll, 1.10),
        ]
        for (name, swift, c, target) in variants {
            rows += sizes.map { Self.apiRow(name, swift, c, rows: $0, target: target) }
        }
        rows.append(Self.apiRow("read all %@ rows (fetchAll → [Row])", .fetchAll, .readAll, rows: sizes.last ?? 0, target: nil))
        let lookups = "\(Self.label(lookupCount)) random PK lookups (%@), %@ rows"
        rows.append(
            Self.apiRow(
                lookups.replacingFirst("%@", "fetchOne"), .lookups, .lookups,
                rows: lookupRows, count: lookupCount, target: 1.10))
        rows.append(
            Self.apiRow(
                lookups.replacingFirst("%@", "prepare + forEachRow"), .lookupsPrepared, .lookups,
                rows: lookupRows, count: lookupCount, target: 1.10))
        rows.append(Self.apiRow("open + unlock (KDF) + close", .open, .open, rows: sizes.first ?? 0, target: 1.02))
        return Section(
            key: "api", title: "Swift public API vs raw C (encrypted); raw C plaintext for reference",
            labels: ["Swift API", "raw C", "C plaintext"], comparisons: rows)
    }

    /// One row of the api section: the Swift job, the same work in raw C encrypted and plaintext.
    /// `%@` in the name is replaced by the row count.
    private static func apiRow(
        _ name: String, _ swift: Job.Workload, _ c: Job.Workload, rows: Int, count: Int = 0, target: Double?
    ) -> Comparison {
        Comparison(
            name: name.replacingFirst("%@", label(rows)),
            jobs: [
                Job(swift, .swift, rows: rows, count: count), Job(c, .c, rows: rows, count: count),
                Job(c, .plain, rows: rows, count: count),
            ],
            target: target)
    }

    /// Crash-safe migrations vs the bare `sqlcipher_export`.
    var migration: Section {
        var rows = migrationSizes.map { size in
            Comparison(
                name: "encrypt plaintext DB of \(Self.label(size)) rows",
                jobs: [Job(.encrypt, .swift, rows: size), Job(.encrypt, .c, rows: size)], target: 1.5)
        }
        rows.append(
            Comparison(
                name: "rekey \(Self.label(rekeyRows)) rows",
                jobs: [Job(.rekey, .swift, rows: rekeyRows), Job(.rekey, .c, rows: rekeyRows)], target: 1.5))
        rows.append(
            Comparison(
                name: "decrypt \(Self.label(rekeyRows)) rows to a new plaintext file",
                jobs: [Job(.decrypt, .swift, rows: rekeyRows), Job(.decrypt, .c, rows: rekeyRows)], target: 1.5))
        return Section(
            key: "migration", title: "Crash-safe migration (Swift API) vs bare sqlcipher_export (raw C)",
            labels: ["crash-safe", "bare export"], comparisons: rows)
    }

    /// Page size and cache size: encrypted ÷ plaintext, both in raw C.
    var settings: Section {
        let size = sizes.last ?? 0
        var rows: [Comparison] = []
        for (pageSize, cacheSize) in [(0, 0), (4096, 0), (0, -16384), (4096, -16384)] {
            let setting =
                "page \(pageSize == 0 ? "default" : "\(pageSize)"), cache \(cacheSize == 0 ? "default" : "\(-cacheSize / 1024) MiB")"
            for workload in [Job.Workload.insert, .readAll, .lookups] {
                let count = workload == .lookups ? lookupCount : 0
                let jobs = [Job.Implementation.c, .plain].map {
                    Job(workload, $0, rows: size, count: count, pageSize: pageSize, cacheSize: cacheSize)
                }
                rows.append(Comparison(name: "\(workload.rawValue) \(Self.label(size)): \(setting)", jobs: jobs, target: nil))
            }
        }
        return Section(
            key: "settings", title: "Settings: encrypted ÷ plaintext overhead (raw C)",
            labels: ["C encrypted", "C plaintext"], comparisons: rows)
    }
}

extension Plan {
    /// The settings diagnosis after a wrong password (the whole ladder, one KDF a set) against
    /// one open of the same file: how many opens the ladder costs.
    var diagnosis: Section {
        let rows = sizes.first ?? 0
        let ladder = Comparison(
            name: "settings diagnosis, wrong password: every known set (\(Self.label(rows)) rows)",
            jobs: [Job(.settingsLadder, .swift, rows: rows), Job(.open, .swift, rows: rows)], target: nil)
        return Section(
            key: "diagnosis", title: "Settings diagnosis (Swift API) vs one open + unlock (KDF) + close",
            labels: ["diagnosis", "one open"], comparisons: [ladder])
    }
}

extension Plan {
    /// The sidecar check (SidecarCheck.swift): an open beside a -wal another
    /// connection uses, and an open after a crash (a private copy replayed and checked first),
    /// each against a plain open of the same file.
    var sidecars: Section {
        let rows = sizes.first ?? 0
        let comparisons = [Job.Workload.openLiveWAL, .openAfterCrash].map { workload in
            Comparison(
                name: "\(workload.rawValue) (\(Self.label(rows)) rows)",
                jobs: [Job(workload, .swift, rows: rows), Job(.open, .swift, rows: rows)], target: nil)
        }
        return Section(
            key: "sidecars", title: "Sidecar check (Swift API): open beside a -wal vs a plain open + close",
            labels: ["with -wal", "plain open"], comparisons: comparisons)
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, _ replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}

extension Plan {
    /// `--only concurrency`: one more connection after an unlock (the derived key) against a
    /// full open with PBKDF2 (goal: under 1 ms), and a write while a read holds a WAL snapshot
    /// against the same write alone (goal: under 5 ms; before the reader pool it waited for the read).
    var concurrency: Section {
        let rows = sizes.first ?? 0
        let extra = Comparison(
            name: "one more connection after unlock: reopen() vs open + unlock (KDF) + close",
            jobs: [Job(.extraConnection, .swift, rows: rows), Job(.open, .swift, rows: rows)], target: nil)
        let extraWAL = Comparison(
            name: "reopen() on WAL (goal <= 1 ms) vs open + unlock (KDF) + close",
            jobs: [Job(.extraConnectionWAL, .swift, rows: rows), Job(.open, .swift, rows: rows)], target: nil)
        let write = Comparison(
            name: "one write on WAL while a read holds a snapshot (\(rows <= 1000 ? "0.2" : "2") s) vs the write alone",
            jobs: [Job(.writeDuringRead, .swift, rows: rows), Job(.writeAlone, .swift, rows: rows)], target: nil)
        let reads = Comparison(
            name: "two full reads of \(Self.label(lookupRows)) rows on WAL: two threads at once vs one after the other",
            jobs: [Job(.readsParallel, .swift, rows: lookupRows), Job(.readsSequential, .swift, rows: lookupRows)], target: nil)
        // Real SQL work, never a sleep: a sleeping load occupies no CPU and hides a stalled pool.
        let sleepRows = rows <= 1000 ? 2000 : 200_000
        let sleeps = [4, 8].map { tasks in
            Comparison(
                name:
                    "Task.sleep(10 ms) while \(tasks) tasks await CPU-bound read { fetchAll(count, sum(length)) } over \(Self.label(sleepRows)) rows (WAL) vs alone (goal ≤ 15 ms)",
                jobs: [
                    Job(.sleepUnderReads, .swift, rows: sleepRows, count: tasks), Job(.sleepUnderReads, .swift, rows: sleepRows, count: 0),
                ], target: nil)
        }
        let lookups = Comparison(
            name:
                "\(Self.label(lookupCount)) random PK lookups inside one read { } (fetchOne) vs raw C in one transaction, \(Self.label(lookupRows)) rows",
            jobs: [
                Job(.lookupsInRead, .swift, rows: lookupRows, count: lookupCount),
                Job(.lookupsInRead, .c, rows: lookupRows, count: lookupCount),
            ], target: 1.05)
        // The same lookups doing C's work (texts as byte counts, the seed's C baseline): what
        // `read { }` and the statement add, without the Row and Strings fetchOne builds.
        let sameWorkLookups = Comparison(
            name:
                "\(Self.label(lookupCount)) random PK lookups inside one read { } (prepared, texts as byte counts) vs raw C doing the same in one transaction, \(Self.label(lookupRows)) rows",
            jobs: [
                Job(.lookupsLengthsInRead, .swift, rows: lookupRows, count: lookupCount),
                Job(.lookupsInRead, .cSeed, rows: lookupRows, count: lookupCount),
            ], target: 1.05)
        let create = Comparison(
            name: "create a database: create(password:) + close vs raw C (one KDF)",
            jobs: [Job(.create, .swift, rows: rows), Job(.create, .c, rows: rows)], target: 1.05)
        return Section(
            key: "concurrency", title: "Concurrency (Swift API): derived-key connections, writes beside reads",
            labels: ["measured", "reference"], comparisons: [extra, extraWAL, write, reads] + sleeps + [lookups, sameWorkLookups, create])
    }

    /// Observation: commit-to-value latency, and what observations of untouched
    /// tables cost a write.
    var observation: Section {
        let commits = sizes.first == 300 ? 20 : 200
        let writes = sizes.first == 300 ? 100 : 2000
        let local = Comparison(
            name:
                "commit (1 INSERT, WAL) to the observed value in a Task, this process: median of \(commits) (goal ≤ 5 ms) vs another process",
            jobs: [Job(.observeLocal, .swift, rows: commits), Job(.observeProcess, .swift, rows: commits)], target: nil)
        let process = Comparison(
            name: "the same from another process (file watch + data_version; goal ≤ 50 ms) vs this process",
            jobs: [Job(.observeProcess, .swift, rows: commits), Job(.observeLocal, .swift, rows: commits)], target: nil)
        let untouched = Comparison(
            name:
                "\(Self.label(writes)) commits (1 INSERT each, WAL, synchronous NORMAL) with 10 observations of an untouched table vs none",
            jobs: [Job(.writesObserved, .swift, rows: writes, count: 10), Job(.writesObserved, .swift, rows: writes, count: 0)],
            target: 1.05)
        let bursts = Comparison(
            name:
                "\(Self.label(writes)) commits in bursts of 50 (WAL, synchronous NORMAL) with 10 observations of the table they write vs none",
            jobs: [Job(.burstsObserved, .swift, rows: writes, count: 10), Job(.burstsObserved, .swift, rows: writes, count: 0)],
            target: nil)
        return Section(
            key: "observation", title: "Observation (Swift API): commit-to-value latency, cost of idle observations, bursts",
            labels: ["measured", "reference"], comparisons: [local, process, untouched, bursts])
    }
}
