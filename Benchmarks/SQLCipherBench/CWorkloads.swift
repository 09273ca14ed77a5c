import CBaseline
import Foundation

// MARK: - C workloads

/// Runs a job with the raw-C baseline (`Benchmarks/CBaseline`), encrypted or plaintext.
struct CWorkloads {
    let job: Job
    let fixtures: Fixtures
    var encrypted: Bool { job.implementation != .plain }

    func run() throws -> Measured {
        if job.implementation == .cSeed, let measured = try seedRun() { return measured }
        switch job.workload {
        case .insert, .insertPrepared, .insertFormatted, .insertFormattedPrepared, .insertRecords, .insertRecordsBatch:
            return try insert(cb_insert)
        case .readAll, .fetchAll, .readView, .readBytes, .readLengths, .readCursor:
            return try onFixture { db in
                Measured.time { (0..<job.passes).reduce(0) { sum, _ in Self.adding(sum, cb_read_all(db)) } }
            }
        case .lookups, .lookupsPrepared:
            let ids = Rows.randomIDs(count: job.count, rows: job.rows)
            return try onFixture { db in Measured.time { cb_lookups(db, ids, Int32(ids.count)) } }
        case .open: return try open()
        case .kdf: return try deriveKey()
        case .format: return Measured.time { cb_format_all(Int32(job.rows)) }
        case .lookupsInRead, .lookupsPreparedInRead, .lookupsLengthsInRead:
            let ids = Rows.randomIDs(count: job.count, rows: job.rows)
            return try onFixture { db in Measured.time { Self.inTransaction(db) { cb_lookups(db, ids, Int32(ids.count)) } } }
        case .create: return try create()
        case .encrypt, .rekey, .decrypt, .backup: return try export()
        case .settingsLadder, .openLiveWAL, .openAfterCrash, .extraConnection, .extraConnectionWAL, .writeDuringRead, .writeAlone,
            .readsParallel,
            .readsSequential, .sleepUnderReads, .slotChange, .slotRekey, .slotOpen, .observeLocal, .observeProcess, .writesObserved,
            .burstsObserved:
            throw BenchError.failed("\(job.workload) is a library flow: no C job")
        }
    }

    /// The seed's work (`c-seed`): rows formatted per row with `snprintf`, texts read
    /// by `sqlite3_column_bytes` only; `fetchAll` keeps every row (a malloc per row, its texts
    /// copied) before using them, as `[Row]` does. `nil` for the workloads where it is the older
    /// baseline's work (open, create, export).
    private func seedRun() throws -> Measured? {
        let ids = Rows.randomIDs(count: job.count, rows: job.rows)
        switch job.workload {
        case .insert, .insertPrepared, .insertFormatted, .insertFormattedPrepared: return try insert(cb_insert_formatted)
        case .readAll, .readView, .readBytes, .readLengths, .readCursor:
            return try onFixture { db in Measured.time { cb_read_lengths(db, Int32(job.passes)) } }
        case .fetchAll: return try onFixture { db in Measured.time { cb_fetch_all_lengths(db, Int32(job.passes)) } }
        case .lookups, .lookupsPrepared:
            return try onFixture { db in Measured.time { cb_lookup_lengths(db, ids, Int32(ids.count)) } }
        case .lookupsInRead, .lookupsPreparedInRead, .lookupsLengthsInRead:
            return try onFixture { db in Measured.time { Self.inTransaction(db) { cb_lookup_lengths(db, ids, Int32(ids.count)) } } }
        default: return nil
        }
    }

    /// `body` between `BEGIN` and `COMMIT`, or -1 when either fails.
    private static func inTransaction(_ db: OpaquePointer, _ body: () -> Int64) -> Int64 {
        guard cb_exec(db, "BEGIN") == 0 else { return -1 }
        let sum = body()
        return cb_exec(db, "COMMIT") == 0 ? sum : -1
    }

    /// A checksum sum that stays -1 (failure) once a part failed.
    private static func adding(_ sum: Int64, _ part: Int64) -> Int64 { sum < 0 || part < 0 ? -1 : sum + part }

    // MARK: - Workloads

    private func insert(_ insertRows: (OpaquePointer?, Int32) -> Int32) throws -> Measured {
        let path = fixtures.scratch("insert").path
        Fixtures.remove(path)
        defer { Fixtures.remove(path) }
        var measured = try withDB(path, create: true) { db in
            guard cb_create_table(db) == 0 else { throw BenchError.failed("create table") }
            return Measured.time { Int64(insertRows(db, Int32(job.rows))) }
        }
        guard measured.checksum == 0 else { throw BenchError.failed("insert") }
        measured.checksum = try Self.checksum(path, encrypted: encrypted, password: Fixtures.password, pageSize: job.pageSize)
        return measured
    }

    private func open() throws -> Measured {
        let path = fixtures.database(rows: job.rows, encrypted: encrypted, pageSize: job.pageSize).path
        return Fixtures.withCOptions(encrypted: encrypted, pageSize: job.pageSize, cacheSize: job.cacheSize) { options in
            Measured.time {
                guard let db = cb_open(path, options, 0) else { return -1 }
                cb_close(db)
                return 0
            }
        }
    }

    /// One PBKDF2 at the linked SQLCipher's default hash and iterations (read before the timer),
    /// for the fixture's salt: what a password open derives. Notes the derivation it timed.
    private func deriveKey() throws -> Measured {
        var iterations: Int32 = 0
        var name = [CChar](repeating: 0, count: 32)
        guard cb_default_kdf(&iterations, &name, Int32(name.count)) == 0 else { throw BenchError.failed("default kdf") }
        let algorithm = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let path = fixtures.database(rows: job.rows, encrypted: true, pageSize: job.pageSize).path
        guard let header = FileManager.default.contents(atPath: path)?.prefix(16), header.count == 16 else {
            throw BenchError.failed("salt of \(path)")
        }
        let salt = Array(header)
        let password = Array(Fixtures.password.utf8)
        var key = [UInt8](repeating: 0, count: 32)
        var measured = Measured.time {
            Int64(cb_pbkdf2(password, Int32(password.count), salt, Int32(salt.count), iterations, algorithm, &key, Int32(key.count)))
        }
        guard measured.checksum == 0 else { throw BenchError.failed("PBKDF2 \(algorithm)") }
        measured.note = "\(algorithm) × \(iterations)"
        return measured
    }

    /// A new encrypted file: open with SQLITE_OPEN_CREATE, key, write the header, close.
    private func create() throws -> Measured {
        let path = fixtures.scratch("create").path
        Fixtures.remove(path)
        defer { Fixtures.remove(path) }
        return Fixtures.withCOptions(encrypted: encrypted, pageSize: job.pageSize, cacheSize: job.cacheSize) { options in
            Measured.time {
                guard let db = cb_open(path, options, 1) else { return -1 }
                defer { cb_close(db) }
                return Int64(cb_exec(db, "PRAGMA user_version = 0"))
            }
        }
    }

    /// The bare migration: plaintext → encrypted (encrypt), old key → new key (rekey),
    /// encrypted → plaintext (decrypt: `KEY ''`), or encrypted → encrypted with the same password (backup).
    private func export() throws -> Measured {
        let rekey = job.workload == .rekey
        let decrypt = job.workload == .decrypt
        let keyed = rekey || decrypt || job.workload == .backup
        let source = try fixtures.copyFixture(rows: job.rows, encrypted: keyed, pageSize: job.pageSize)
        let target = fixtures.scratch("target").path
        Fixtures.remove(target)
        defer {
            Fixtures.remove(source)
            Fixtures.remove(target)
        }
        let oldKey = Array(Fixtures.password.utf8)
        let newKey = Array((rekey ? Fixtures.newPassword : Fixtures.password).utf8)
        var measured = Measured.time {
            Int64(
                cb_export(
                    source, keyed ? oldKey : nil, Int32(oldKey.count), target, decrypt ? nil : newKey,
                    Int32(newKey.count)))
        }
        guard measured.checksum == 0 else { throw BenchError.failed("export") }
        let password = rekey ? Fixtures.newPassword : Fixtures.password
        measured.checksum = try Self.checksum(target, encrypted: !decrypt, password: password)
        return measured
    }

    // MARK: - Helpers

    private func onFixture(_ body: (OpaquePointer) throws -> Measured) throws -> Measured {
        let path = fixtures.database(rows: job.rows, encrypted: encrypted, pageSize: job.pageSize).path
        return try withDB(path, create: false, body)
    }

    /// The seed's C baseline opens `SQLITE_OPEN_NOMUTEX`, like the library's connections, so
    /// that no ratio is lighter for a mutex round per C call that only C pays.
    private func withDB<T>(_ path: String, create: Bool, _ body: (OpaquePointer) throws -> T) throws -> T {
        try Fixtures.withCOptions(
            encrypted: encrypted, pageSize: job.pageSize, cacheSize: job.cacheSize,
            noMutex: job.implementation == .cSeed
        ) { options in
            guard let db = cb_open(path, options, create ? 1 : 0) else { throw BenchError.failed("open \(path)") }
            defer { cb_close(db) }
            return try body(db)
        }
    }

    /// A hash of every value of every row of a database (untimed, `cb_content_checksum`), to
    /// prove both sides wrote the same rows byte for byte.
    static func checksum(_ path: String, encrypted: Bool, password: String, pageSize: Int = 0) throws -> Int64 {
        try Fixtures.withCOptions(encrypted: encrypted, pageSize: pageSize, cacheSize: 0, password: password) { options in
            guard let db = cb_open(path, options, 0) else { throw BenchError.failed("checksum open \(path)") }
            defer { cb_close(db) }
            return cb_content_checksum(db)
        }
    }
}

// MARK: - Measured

/// The wall time of the measured part of a workload and its checksum.
struct Measured {
    var seconds: Double
    var checksum: Int64
    /// What the job measured besides its time (see ``JobResult/note``).
    var note: String? = nil

    static func time(_ body: () throws -> Int64) rethrows -> Measured {
        cb_measure_toggle()
        let start = DispatchTime.now().uptimeNanoseconds
        let checksum = try body()
        let end = DispatchTime.now().uptimeNanoseconds
        cb_measure_toggle()
        return Measured(seconds: Double(end - start) / 1e9, checksum: checksum)
    }
}
