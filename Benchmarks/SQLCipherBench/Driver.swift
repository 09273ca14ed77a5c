import Foundation
import SQLCipherManager

// MARK: - Driver

/// The parent: builds fixtures, runs every job of the selected sections `runs` times in child
/// processes, interleaving the jobs of a row so that machine noise hits them alike, then prints
/// the tables.
final class Driver {
    let options: Options
    let plan: Plan
    let fixtures: Fixtures
    private var samples: [Job: Samples] = [:]
    /// The stripped copy run under callgrind, with `--instructions`.
    private var callgrindExecutable: URL?

    init(options: Options) {
        self.options = options
        plan = Plan(quick: options.quick)
        let directory =
            options.directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("sqlcipher-bench-\(getpid())")
        fixtures = Fixtures(directory: directory)
    }

    /// Runs everything; returns `false` when a job failed or a checksum disagrees between
    /// implementations (a job whose API the library lacks is "n/a", not a failure).
    func run() throws -> Bool {
        let sections = plan.sections.filter { options.includes($0.key) }
        try FileManager.default.createDirectory(at: fixtures.directory, withIntermediateDirectories: true)
        defer { if options.directory == nil { try? FileManager.default.removeItem(at: fixtures.directory) } }
        Report.header(options: options, directory: fixtures.directory)
        try prepareFixtures(for: sections.flatMap { $0.comparisons.flatMap(\.jobs) })
        if options.fixturesOnly { return true }
        print("- cipher settings: \(try CipherCheck.run(fixtures: fixtures, rows: plan.sizes.first ?? 0))")
        if options.instructions { callgrindExecutable = try Child.strippedCopy(in: fixtures.directory) }
        var consistent = true
        for section in sections {
            measure(section)
            consistent = Report.table(section, samples: samples, instructions: options.instructions) && consistent
        }
        Report.footer()
        let failed = samples.values.contains { $0.failure != nil && !$0.isUnavailable }
        return consistent && !failed
    }

    // MARK: - Measuring

    private func measure(_ section: Section) {
        for run in 0..<options.runs {
            progress("\(section.key): run \(run + 1)/\(options.runs)")
            for comparison in section.comparisons {
                // Alternate the order each run, so neither side always goes first.
                let jobs = run % 2 == 0 ? comparison.jobs : comparison.jobs.reversed()
                for job in jobs where samples[job, default: Samples()].needs(run: run) {
                    do {
                        samples[job, default: Samples()].results.append(
                            try Child.spawn(job, directory: fixtures.directory, callgrind: callgrindExecutable))
                    } catch {
                        samples[job, default: Samples()].failure = "\(error)"
                        if case .unavailable = error as? BenchError { samples[job]?.isUnavailable = true }
                    }
                }
            }
        }
        progress(nil)
    }

    private func prepareFixtures(for jobs: [Job]) throws {
        progress("building fixtures")
        for job in jobs {
            switch job.workload {
            case .insert, .insertPrepared, .insertFormatted, .insertFormattedPrepared, .insertRecords, .insertRecordsBatch, .format,
                .create, .sleepUnderReads, .observeLocal, .observeProcess, .writesObserved, .burstsObserved:
                continue
            case .encrypt: try fixtures.ensure(rows: job.rows, encrypted: false, pageSize: job.pageSize)
            case .rekey, .decrypt, .backup: try fixtures.ensure(rows: job.rows, encrypted: true, pageSize: job.pageSize)
            case .slotChange, .slotRekey, .slotOpen: try fixtures.ensureKeySlotFixtures(megabytes: job.rows)
            case .readAll, .fetchAll, .readView, .readBytes, .lookups, .lookupsPrepared, .open, .kdf, .settingsLadder,
                .openLiveWAL, .openAfterCrash, .extraConnection, .extraConnectionWAL, .writeDuringRead, .writeAlone, .readsParallel,
                .readsSequential,
                .lookupsInRead,
                .readLengths, .readCursor, .lookupsPreparedInRead, .lookupsLengthsInRead:
                try fixtures.ensure(rows: job.rows, encrypted: job.implementation != .plain, pageSize: job.pageSize)
            }
        }
        progress(nil)
    }

    private func progress(_ message: String?) {
        guard isatty(2) != 0 else { return }
        let text = message.map { "\r\u{1B}[K… \($0)" } ?? "\r\u{1B}[K"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
