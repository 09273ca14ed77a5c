// MARK: - Job

/// One measurement: a workload, the implementation that runs it, its size and its settings.
/// A job runs in a child process of its own (`--child …`), so its peak RSS is its own.
struct Job: Hashable, Sendable {
    enum Workload: String, Sendable {
        case insert
        case readAll = "read"
        case fetchAll = "fetchall"
        case lookups, open, encrypt, rekey, decrypt
        /// One PBKDF2 derivation at the linked SQLCipher's default hash and iteration count, for
        /// the fixture's salt (C only): the key-derivation part of an open.
        case kdf
        /// `open` + `backup(to:)` of an encrypted database into a new file with the same password
        /// (Swift), vs a bare `sqlcipher_export` into an attached file keyed with it (C).
        case backup
        /// `diagnoseCipherSettings` with a wrong password: every known set is tried.
        case settingsLadder = "settings-ladder"
        /// `open` + `close` while another manager of the process holds the file open in WAL mode
        /// with frames in the `-wal` (the sidecar check sees it in use: no copy).
        case openLiveWAL = "open-live-wal"
        /// `open` + `close` of a copy left as a crash leaves it: a `-wal` with frames and no
        /// connection (the check replays a private copy first; the close checkpoints).
        case openAfterCrash = "open-after-crash"
        /// The same work through `Database.prepare` / `forEachRow` (the fast public API).
        case insertPrepared = "insert-prepared"
        case readView = "read-view"
        case readBytes = "read-bytes"
        case lookupsPrepared = "lookups-prepared"
        /// After an unlock, one more connection: `reopen()` (the derived key, no PBKDF2).
        case extraConnection = "extra-connection"
        /// The same on a WAL copy: closing the last connection removes the `-wal` and `-shm`.
        case extraConnectionWAL = "extra-connection-wal"
        /// One `write { INSERT }` on a WAL database while another thread's `read { }` holds a
        /// snapshot open, and the same write with no reader.
        case writeDuringRead = "write-during-read"
        case writeAlone = "write-alone"
        /// Two full reads through `read { }` on WAL: on two threads at once, or one after the other.
        case readsParallel = "reads-parallel"
        case readsSequential = "reads-sequential"
        /// A `Task.sleep(10 ms)` while `count` tasks await CPU-bound `read { fetchAll }` calls over
        /// `rows` rows (0 tasks: nothing else running).
        case sleepUnderReads = "sleep-under-reads"
        /// Random PK lookups inside one read transaction (Swift: `read { fetchOne… }`; C: BEGIN, lookups, COMMIT).
        case lookupsInRead = "lookups-in-read"
        /// Create a database: `create(password:)` + `close()`; C: open with create, key, write `user_version`, close (one KDF).
        case create
        /// Key slots (`rows` = MiB of database): a password change, the export rekey it replaces, an unlock.
        case slotChange = "slot-change"
        case slotRekey = "slot-rekey"
        case slotOpen = "slot-open"
        /// The seed's insert: each row's texts formatted per row (Swift string
        /// interpolation; C `snprintf`), through `db.execute(sql, values…)` or `prepare` + `execute`.
        case insertFormatted = "insert-formatted"
        case insertFormattedPrepared = "insert-formatted-prepared"
        /// The seed insert's formatting alone, no database: the 4 texts of each row (`rows` rows).
        case format
        /// Every row read `count` times (0 = once) through `forEachRow`, texts taken as UTF-8
        /// byte counts in place (`withUTF8`), no copy: the same work as C's `sqlite3_column_bytes`.
        case readLengths = "read-lengths"
        /// Every row read `count` times through `read { fetchCursor }`, typed getters, texts as `String`.
        case readCursor = "read-cursor"
        /// Random PK lookups through one `PreparedStatement` inside one `read { }` (C: one transaction).
        case lookupsPreparedInRead = "lookups-prepared-in-read"
        /// The same lookups with texts taken as UTF-8 byte counts in place (`withUTF8`): the work
        /// C's `sqlite3_column_bytes` does, so the ratio is what `read { }` and the statement add.
        case lookupsLengthsInRead = "lookups-lengths-in-read"
        /// The seed's insert as `Codable` records: `db.insert(record)` per row, or
        /// one `db.insert(contentsOf:)` over a lazy sequence; each row's texts formatted per row.
        case insertRecords = "insert-records"
        case insertRecordsBatch = "insert-records-batch"
        /// Observation: the median commit-to-value latency over `rows` commits, made
        /// by this process or by another one; `rows` commits with `count` observations of a table
        /// they do not touch (0: none).
        case observeLocal = "observe-local"
        case observeProcess = "observe-process"
        case writesObserved = "writes-observed"
        /// `rows` commits in bursts of 50 with `count` observations of the table they write (0:
        /// none); notes how often each observed query ran per burst.
        case burstsObserved = "bursts-observed"
    }

    enum Implementation: String, Sendable {
        /// The library's public Swift API (encrypted).
        case swift
        /// Raw C on libsqlcipher, encrypted (sqlite3_key).
        case c
        /// Raw C on the same library, no key (plaintext).
        case plain
        /// Raw C, encrypted, doing the seed's work: texts formatted per row with
        /// `snprintf` when inserting, read with `sqlite3_column_bytes` only (no copy); for
        /// `fetchAll`, every row kept in a malloc'd block (texts copied) before it is used.
        case cSeed = "c-seed"
    }

    var workload: Workload
    var implementation: Implementation
    var rows: Int
    /// Lookups to run (the lookups workloads), or passes over the table (the read workloads; 0 = one).
    var count: Int = 0
    /// `cipher_page_size` / `page_size`; 0 = the library default.
    var pageSize: Int = 0
    /// `PRAGMA cache_size`; 0 = the library default.
    var cacheSize: Int = 0

    /// Full passes over the table for the read workloads.
    var passes: Int { Swift.max(1, count) }

    // MARK: - Command line

    var arguments: [String] {
        [workload.rawValue, implementation.rawValue, "\(rows)", "\(count)", "\(pageSize)", "\(cacheSize)"]
    }

    init(
        _ workload: Workload, _ implementation: Implementation, rows: Int, count: Int = 0,
        pageSize: Int = 0, cacheSize: Int = 0
    ) {
        self.workload = workload
        self.implementation = implementation
        self.rows = rows
        self.count = count
        self.pageSize = pageSize
        self.cacheSize = cacheSize
    }

    init?(arguments: [String]) {
        guard arguments.count == 6,
            let workload = Workload(rawValue: arguments[0]),
            let implementation = Implementation(rawValue: arguments[1]),
            let numbers = Optional(arguments[2...].compactMap { Int($0) }), numbers.count == 4
        else { return nil }
        self.init(
            workload, implementation, rows: numbers[0], count: numbers[1],
            pageSize: numbers[2], cacheSize: numbers[3])
    }
}

// MARK: - Result

/// What a child reports: wall time of the measured part, peak RSS, and a checksum of the data
/// it read (so the C and Swift workloads can be checked to do the same work).
struct JobResult: Sendable {
    var seconds: Double
    var peakRSSKiB: Int
    var checksum: Int64

    /// What the job measured besides its time, printed under its table (a `NOTE` line).
    var note: String?

    var line: String { "RESULT \(seconds) \(peakRSSKiB) \(checksum)" }

    init(seconds: Double, peakRSSKiB: Int, checksum: Int64) {
        self.seconds = seconds
        self.peakRSSKiB = peakRSSKiB
        self.checksum = checksum
    }

    init?(line: Substring) {
        let parts = line.split(separator: " ")
        guard parts.count == 4, parts[0] == "RESULT", let seconds = Double(parts[1]),
            let rss = Int(parts[2]), let checksum = Int64(parts[3])
        else { return nil }
        self.init(seconds: seconds, peakRSSKiB: rss, checksum: checksum)
    }
}
