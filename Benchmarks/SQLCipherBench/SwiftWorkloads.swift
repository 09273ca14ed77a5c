import Foundation
import SQLCipherManager

// MARK: - Swift workloads

/// Runs a job through the library's public API, exactly as an application would.
struct SwiftWorkloads {
    let job: Job
    let fixtures: Fixtures

    var configuration: DatabaseConfiguration {
        DatabaseConfiguration(cipher: CipherOptions(pageSize: job.pageSize > 0 ? job.pageSize : nil))
    }

    func run() throws -> Measured {
        switch job.workload {
        case .insert: return try insert(prepared: false, formatted: false)
        case .insertPrepared: return try insert(prepared: true, formatted: false)
        case .readView, .readBytes, .readAll, .fetchAll, .readLengths, .readCursor: return try read()
        case .lookups, .lookupsPrepared, .lookupsInRead, .lookupsPreparedInRead, .lookupsLengthsInRead: return try lookups()
        case .open: return try open()
        case .kdf: throw BenchError.failed("kdf is a C job: the library derives inside open")
        case .settingsLadder: return try settingsLadder()
        case .openLiveWAL: return try openLiveWAL()
        case .openAfterCrash: return try openAfterCrash()
        case .extraConnection: return try extraConnection(wal: false)
        case .extraConnectionWAL: return try extraConnection(wal: true)
        case .writeDuringRead: return try write(duringRead: true)
        case .writeAlone: return try write(duringRead: false)
        case .readsParallel: return try twoReads(parallel: true)
        case .readsSequential: return try twoReads(parallel: false)
        case .sleepUnderReads: return try sleepLatency()
        case .format: return Measured.time { Self.formatAll(count: job.rows) }
        case .insertFormatted: return try insert(prepared: false, formatted: true)
        case .insertFormattedPrepared: return try insert(prepared: true, formatted: true)
        case .insertRecords: return try insert { try Self.insertRecords($0, count: job.rows) }
        case .insertRecordsBatch: return try insert { try Self.insertRecordsBatch($0, count: job.rows) }
        case .create: return try createDatabase()
        case .encrypt: return try encrypt()
        case .rekey: return try rekey()
        case .decrypt: return try decrypt()
        case .backup: return try backup()
        case .slotChange, .slotRekey, .slotOpen: return try keySlots()
        case .observeLocal: return try observationLatencyLocal()
        case .observeProcess: return try observationLatencyOtherProcess()
        case .writesObserved: return try writesObserved()
        case .burstsObserved: return try burstsObserved()
        }
    }

    // MARK: - Insert

    private func insert(prepared: Bool, formatted: Bool) throws -> Measured {
        let rows = Rows()  // the pool is built before the timer starts
        return try insert { db in
            switch (prepared, formatted) {
            case (false, false): try Self.insert(db, rows: rows, count: job.rows)
            case (true, false): try Self.insertPrepared(db, rows: rows, count: job.rows)
            case (false, true): try Self.insertFormatted(db, count: job.rows)
            case (true, true): try Self.insertFormattedPrepared(db, count: job.rows)
            }
        }
    }

    /// Runs `body` in one transaction on a new database (the measured part) and checksums the file.
    private func insert(_ body: (Database) throws -> Void) throws -> Measured {
        let url = fixtures.scratch("insert")
        Fixtures.remove(url.path)
        defer { Fixtures.remove(url.path) }
        let manager = DatabaseManager(url: url, configuration: configuration)
        try manager.create(password: Fixtures.password)
        try manager.withDatabase { db in try db.execute(Fixtures.createSQL) }
        try applyCacheSize(manager)
        var measured = try Measured.time {
            try manager.transactionSync { db in try body(db) }
            return 0
        }
        manager.close()
        measured.checksum = try CWorkloads.checksum(
            url.path, encrypted: true, password: Fixtures.password, pageSize: job.pageSize)
        return measured
    }

    /// The convenience API: `db.execute(sql, values…)` per row.
    static func insert(_ db: Database, rows: Rows, count: Int) throws {
        for row in 1...count {
            try db.execute(
                Rows.insertSQL, row, rows.text(row, 0), rows.text(row, 1), rows.text(row, 2),
                rows.text(row, 3), Rows.int1(row), Rows.int2(row), Rows.real(row))
        }
    }

    /// The fast API: one `PreparedStatement`, `execute(values…)` per row.
    static func insertPrepared(_ db: Database, rows: Rows, count: Int) throws {
        let insert = try db.prepare(Rows.insertSQL)
        for row in 1...count {
            try insert.execute(
                row, rows.text(row, 0), rows.text(row, 1), rows.text(row, 2),
                rows.text(row, 3), Rows.int1(row), Rows.int2(row), Rows.real(row))
        }
    }

    // MARK: - Open

    private func open() throws -> Measured {
        let url = fixtures.database(rows: job.rows, encrypted: true, pageSize: job.pageSize)
        let manager = DatabaseManager(url: url, configuration: configuration)
        return try Measured.time {
            try manager.open(password: Fixtures.password)
            manager.close()
            return 0
        }
    }

    /// `diagnoseCipherSettings` with a wrong password: every set of `knownCipherSettings` is
    /// tried (the configured one, SQLCipher's defaults, is skipped: it already failed).
    private func settingsLadder() throws -> Measured {
        let url = fixtures.database(rows: job.rows, encrypted: true, pageSize: job.pageSize)
        let manager = DatabaseManager(url: url, configuration: configuration)
        var tried = 0
        let measured = try Measured.time {
            if case .noKnownSettingsOpen(let sets) = try manager.diagnoseCipherSettings(password: Fixtures.newPassword) {
                tried = sets.count
            }
            return 0
        }
        guard tried == DatabaseTools.knownCipherSettings.count - 1 else {
            throw BenchError.failed("the settings ladder tried \(tried) sets")
        }
        return measured
    }

    // MARK: - Helpers

    func onFixture(_ body: (DatabaseManager) throws -> Measured) throws -> Measured {
        let url = fixtures.database(rows: job.rows, encrypted: true, pageSize: job.pageSize)
        let manager = DatabaseManager(url: url, configuration: configuration)
        try manager.open(password: Fixtures.password)
        defer { manager.close() }
        try applyCacheSize(manager)
        return try body(manager)
    }

    private func applyCacheSize(_ manager: DatabaseManager) throws {
        if job.cacheSize != 0 { try manager.withDatabase { db in try db.execute("PRAGMA cache_size = \(job.cacheSize)") } }
    }
}
