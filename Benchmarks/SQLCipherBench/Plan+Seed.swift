import Foundation

// MARK: - The seed's workloads

/// A ratio to raw C quoted for GRDB 7.8 on the same libsqlcipher when the targets were set
/// (measured elsewhere, not by this program): wall clock and callgrind instructions.
struct QuotedRatio {
    var api: String
    var wall: Double
    var instructions: Double
}

/// The `seed` section's columns for one row: our job against the seed's C baseline (per-row
/// `snprintf`, `sqlite3_column_bytes` only), the older pair (pooled texts, texts copied) beside
/// it so nothing gets lighter by accident, and GRDB's quoted ratio.
struct SeedColumns {
    var ours: Job
    var c: Job
    var oldOurs: Job
    var oldC: Job
    var grdb: QuotedRatio?
    /// The C job GRDB's quoted ratio was taken against, when it is not `c` (the quoted figure's C ran
    /// its lookups in autocommit).
    var grdbBaseline: Job?
    /// `fetchAll`: the job whose peak RSS it must stay within `memoryGoal` times of (the cursor).
    var memoryReference: Job?
    var memoryGoal: Double?

    /// Every job of the row, each once.
    var jobs: [Job] {
        var seen = Set<Job>()
        return [ours, c, oldOurs, oldC, grdbBaseline, memoryReference].compactMap { $0 }.filter { seen.insert($0).inserted }
    }
}

extension Plan {
    /// Passes over the table in the seed section's read rows ("read 5 × 100k").
    static let seedPasses = 5

    /// `--only seed`: the main table (100k 8-field rows, one transaction), each of our rows
    /// against raw C doing the seed's work, the older baseline beside it, GRDB's quoted figure.
    var seed: Section {
        let n = sizes.last ?? 0
        let passes = Self.seedPasses
        let reads = "read \(passes) × \(Self.label(n)) rows"
        let grdbInsert = QuotedRatio(api: "makeStatement + execute", wall: 1.60, instructions: 1.53)
        let grdbCursor = QuotedRatio(api: "Row.fetchCursor", wall: 1.30, instructions: 1.23)
        let grdbLookups = QuotedRatio(api: "read { } (vs C in autocommit)", wall: 0.76, instructions: 1.18)
        let autocommit = Job(.lookups, .cSeed, rows: lookupRows, count: lookupCount)
        let strings = Job(.readView, .swift, rows: n, count: passes)
        let cursor = Job(.readCursor, .swift, rows: n, count: passes)
        let all = Job(.fetchAll, .swift, rows: n, count: passes)
        return Section(
            key: "seed", title: "The main workloads, our public API vs raw C doing the same work", labels: ["ours", "raw C"],
            comparisons: [
                Self.seedRow(
                    "insert \(Self.label(n)) rows, 1 transaction: `db.execute(sql, values…)`",
                    Job(.insertFormatted, .swift, rows: n), old: Job(.insert, .swift, rows: n), c: .insert, goal: 1.10, grdb: grdbInsert),
                Self.seedRow(
                    "insert \(Self.label(n)) rows, 1 transaction: `prepare` + `execute`",
                    Job(.insertFormattedPrepared, .swift, rows: n), old: Job(.insertPrepared, .swift, rows: n), c: .insert, goal: 1.05,
                    grdb: grdbInsert),
                Self.seedRow(
                    "the inserts' formatting alone, no database: 4 × \(Self.label(n)) texts (interpolation vs `snprintf`)",
                    Job(.format, .swift, rows: n), old: Job(.format, .swift, rows: n), c: .format, goal: nil, grdb: nil),
                Self.seedRow(
                    "\(reads): `read { fetchCursor }`, typed getters, texts as `String`", cursor, old: cursor,
                    c: .readAll, goal: 1.15, grdb: grdbCursor),
                Self.seedRow(
                    "\(reads): `forEachRow`, texts as UTF-8 byte counts",
                    Job(.readLengths, .swift, rows: n, count: passes), old: Job(.readBytes, .swift, rows: n, count: passes), c: .readAll,
                    goal: nil, grdb: grdbCursor),
                Self.seedRow(
                    "\(reads): `forEachRow`, texts as `String`", strings, old: strings, c: .readAll, goal: nil, grdb: grdbCursor),
                Self.seedRow(
                    "\(reads): `forEachRow` + `row.row` (a `Row` per row)", Job(.readAll, .swift, rows: n, count: passes),
                    old: Job(.readAll, .swift, rows: n, count: passes), c: .readAll, goal: nil, grdb: grdbCursor),
                Self.seedRow(
                    "\(reads): `fetchAll` → `[Row]` vs C streaming (peak RSS vs the cursor's)", all, old: all, c: .readAll,
                    goal: 1.50, grdb: QuotedRatio(api: "fetchAll", wall: 3.04, instructions: 2.32), memory: cursor),
                // The same user's work on both sides: all rows in memory, then used.
                // GRDB's quoted ratio was against the streaming C, so it is not repeated here.
                Self.seedRow(
                    "\(reads): `fetchAll` → `[Row]` vs C keeping the rows (malloc per row)", all, old: all, c: .fetchAll,
                    oldC: .readAll, goal: 1.12, grdb: nil),
            ] + seedLookups(grdbLookups, autocommit) + [seedEncrypt])
    }

    /// The lookup rows: natural `fetchOne` and a prepared statement, inside one `read { }` (C in
    /// one transaction) and per call (C in autocommit).
    private func seedLookups(_ grdb: QuotedRatio, _ autocommit: Job) -> [Comparison] {
        let lookups = "\(Self.label(lookupCount)) random PK lookups, \(Self.label(lookupRows)) rows"
        func job(_ workload: Job.Workload) -> Job { Job(workload, .swift, rows: lookupRows, count: lookupCount) }
        return [
            Self.seedRow(
                "\(lookups): `fetchOne` inside one `read { }`", job(.lookupsInRead), old: job(.lookupsInRead),
                c: .lookupsInRead, goal: 1.05, grdb: grdb, grdbBaseline: autocommit),
            Self.seedRow(
                "\(lookups): `prepare` + `forEachRow` inside one `read { }`", job(.lookupsPreparedInRead),
                old: job(.lookupsPreparedInRead),
                c: .lookupsInRead, goal: 1.05, grdb: grdb, grdbBaseline: autocommit),
            // The same work on both sides: texts' byte counts (what `read { }` adds).
            Self.seedRow(
                "\(lookups): `prepare` + `forEachRow` inside one `read { }`, texts as byte counts",
                job(.lookupsLengthsInRead), old: job(.lookupsLengthsInRead),
                c: .lookupsInRead, goal: 1.05, grdb: grdb, grdbBaseline: autocommit),
            // The issue quotes no per-call GRDB figure (its `read { }` runs one transaction).
            Self.seedRow(
                "\(lookups): `manager.readSync { fetchOne }` per call", job(.lookups), old: job(.lookups), c: .lookups, goal: 1.05,
                grdb: nil),
            Self.seedRow(
                "\(lookups): `prepare` + `forEachRow` in `withDatabase` (autocommit)", job(.lookupsPrepared),
                old: job(.lookupsPrepared),
                c: .lookups, goal: 1.05, grdb: nil),
        ]
    }

    /// The crash-safe encrypt of an existing file (export, verification, atomic swap) vs a bare
    /// `sqlcipher_export` (the same C export in both columns: it did not change).
    private var seedEncrypt: Comparison {
        let n = migrationSizes.last ?? 0
        let ours = Job(.encrypt, .swift, rows: n)
        let export = Job(.encrypt, .c, rows: n)
        return Comparison(
            name: "crash-safe encrypt of an existing \(Self.label(n))-row file vs a bare `sqlcipher_export`",
            jobs: [ours, export], target: 1.5,
            seed: SeedColumns(ours: ours, c: export, oldOurs: ours, oldC: export))
    }

    /// One row: `ours` against `c` done by the seed's C baseline, `old` against the older baseline
    /// (running `oldC`, `c` when not given).
    private static func seedRow(
        _ name: String, _ ours: Job, old: Job, c workload: Job.Workload, oldC: Job.Workload? = nil, goal: Double?,
        grdb: QuotedRatio?, grdbBaseline: Job? = nil, memory: Job? = nil
    ) -> Comparison {
        let columns = SeedColumns(
            ours: ours, c: Job(workload, .cSeed, rows: ours.rows, count: ours.count), oldOurs: old,
            oldC: Job(oldC ?? workload, .c, rows: ours.rows, count: ours.count), grdb: grdb, grdbBaseline: grdbBaseline,
            memoryReference: memory, memoryGoal: memory == nil ? nil : 1.3)
        return Comparison(name: name, jobs: columns.jobs, target: goal, seed: columns)
    }
}
