import Foundation
import SQLCipherCore

// MARK: - Export target

/// Where and how ``Connection/export(to:progress:)`` writes its copy.
package struct ExportTarget {
    /// The file to write; it must not exist.
    package let path: String
    /// The copy's key, `nil` for a plaintext copy (`KEY ''`).
    package let key: SecretBytes?
    /// The copy's cipher pragmas for the attached schema (``Connection/exportSchema``), run
    /// after its key; ignored for a plaintext copy.
    let cipherPragmas: [String]
}

/// What an export learnt about its source.
package struct ExportResult {
    /// The source's schema, row counts and header values, read in the export's transaction.
    package let fingerprint: DatabaseFingerprint
    /// `true` when the source was in WAL mode (`PRAGMA journal_mode` = `wal`).
    let sourceIsWAL: Bool
}

// MARK: - Export

extension Connection {
    /// The name the copy is attached under.
    package static let exportSchema = "scm_export"

    /// Copies this connection's main database into a new file with its own key and settings:
    /// `ATTACH DATABASE ? AS scm_export KEY ?` (path and key bound, never in SQL text), the
    /// cipher pragmas on `scm_export`, then in one transaction `SELECT sqlcipher_export('scm_export')`
    /// and the `user_version` and `application_id` that export does not copy; finally `DETACH`.
    ///
    /// Foreign keys are off during the copy (rows arrive table by table). A WAL database is
    /// read through its `-wal` like any reader does, so the copy holds every committed page.
    /// The copy is written as scratch (`journal_mode = MEMORY`, `synchronous = OFF` on
    /// `scm_export`): it has no `-journal` and is not flushed here; the caller must `fsync` it
    /// before relying on it.
    /// `progress` hears the fraction of the source's size written.
    package func export(to target: ExportTarget, progress: ProgressReporter) throws -> ExportResult {
        let isWAL = try text("PRAGMA main.journal_mode")?.lowercased() == "wal"
        let foreignKeys = try int64("PRAGMA foreign_keys").map { $0 != 0 } ?? false
        if foreignKeys { try executeScript("PRAGMA foreign_keys = OFF") }
        defer { if foreignKeys { try? executeScript("PRAGMA foreign_keys = ON") } }
        // The fingerprint pass reads every table; a cache that holds them lets the export read
        // them again without decrypting each page a second time. Restored afterwards.
        let cacheSize = try int64("PRAGMA main.cache_size").map(Int.init) ?? 0
        try executeScript("PRAGMA main.cache_size = \(Self.scanCacheSize(forFileAt: path, atLeast: cacheSize))")
        defer { try? executeScript("PRAGMA main.cache_size = \(cacheSize)") }
        try attach(target)
        do {
            let fingerprint = try copy(into: target, progress: progress)
            try executeScript("DETACH DATABASE \(Self.exportSchema)")
            return ExportResult(fingerprint: fingerprint, sourceIsWAL: isWAL)
        } catch {
            if !isAutocommit { try? executeScript("ROLLBACK") }
            try? executeScript("DETACH DATABASE \(Self.exportSchema)")
            throw error
        }
    }

    /// `ATTACH DATABASE ? AS scm_export KEY ?` with the path and the key bound (the key without a
    /// copy, run and unbound while its bytes are lent); an empty key blob makes a plaintext file.
    /// The statement is finalized at once.
    private func attach(_ target: ExportTarget) throws {
        let statement = try prepare("ATTACH DATABASE ? AS \(Self.exportSchema) KEY ?")
        try statement.bind(.text(target.path), at: 1)
        try (target.key ?? SecretBytes([UInt8]())).withBytes { key in
            defer { statement.clearBindings() }
            try statement.bind(secret: key, at: 2)
            try statement.step()
        }
    }

    /// Sets up the attached file, then copies in one transaction and returns the source's fingerprint.
    private func copy(into target: ExportTarget, progress: ProgressReporter) throws -> DatabaseFingerprint {
        let schema = Self.exportSchema
        if target.key != nil {
            for pragma in target.cipherPragmas { try executeScript(pragma) }
        }
        let autoVacuum = try int64("PRAGMA main.auto_vacuum") ?? 0
        // A small page cache makes the copy reach the disk as it goes, which is what progress measures.
        try executeScript("PRAGMA \(schema).auto_vacuum = \(autoVacuum); PRAGMA \(schema).cache_size = 256")
        // The copy is scratch until it is installed: a failure or a crash before then discards
        // it (journal phase `export`). So it keeps no rollback journal on disk (an empty file
        // has no old pages to journal) and SQLite does not fsync it at the commit: the caller
        // flushes it once, before it can be installed (see ExportOperation).
        try executeScript("PRAGMA \(schema).journal_mode = MEMORY; PRAGMA \(schema).synchronous = OFF")
        let expected = Double(max(FileSystem.size(of: path) ?? 1, 1))
        setProgressHandler(every: 4000) {
            progress(0.9 * Double(FileSystem.size(of: target.path) ?? 0) / expected)
            return false
        }
        defer { setProgressHandler(every: 0, nil) }
        return try inTransaction {
            let fingerprint = try DatabaseFingerprint(self)
            do {
                try executeScript("SELECT sqlcipher_export('\(schema)')")
            } catch let error as SQLiteError {
                throw Self.restoringCode(of: error)
            }
            try executeScript("PRAGMA \(schema).user_version = \(fingerprint.userVersion)")
            try executeScript("PRAGMA \(schema).application_id = \(fingerprint.applicationID)")
            return fingerprint
        }
    }

    /// A `cache_size` (negative: KiB) that holds a file of this size, so that a database read
    /// several times in a row (fingerprint, export; integrity check, row counts) is decrypted
    /// once: 1.5 × the file's size (each cached page also carries SQLite's bookkeeping, and a
    /// cyclic scan through a cache even slightly too small misses on every page), at most
    /// `limitKiB`, never below `current`'s capacity or SQLite's default 2 MB.
    static func scanCacheSize(forFileAt path: String, atLeast current: Int = 0, limitKiB: Int = scanCacheLimitKiB) -> Int {
        let fileKiB = Int((FileSystem.size(of: path) ?? 0) / 1024)
        let kib = fileKiB + fileKiB / 2 + 256
        let wanted = -min(max(kib, 2000), max(limitKiB, 2000))
        // A positive current value counts pages; compare as KiB at the smallest page size.
        let currentKiB = current < 0 ? -current : current
        return currentKiB >= -wanted ? current : wanted
    }

    /// The most a scan cache may hold: 1/16 of the machine's memory, between 32 MiB and 1 GiB.
    /// A cache too small for the file makes every later pass decrypt every page again (a
    /// backup of a 129 MB file took 1.51 × a bare export with 32 MiB); the memory is held only
    /// while the export or its check runs, then given back (`cache_size` restored, the
    /// connection closed).
    static let scanCacheLimitKiB: Int = {
        let sixteenth = Int(min(ProcessInfo.processInfo.physicalMemory / 16 / 1024, UInt64(Int.max)))
        return min(max(sixteenth, 32 * 1024), 1024 * 1024)
    }()
}

// MARK: - Progress

/// Passes a fraction 0…1 to the caller's closure, only when it grew by at least 1 % (or reached 1).
package final class ProgressReporter {
    private let report: ((Double) -> Void)?
    private var last = -1.0

    init(_ report: ((Double) -> Void)?) { self.report = report }

    func callAsFunction(_ fraction: Double) {
        guard let report else { return }
        let value = min(max(fraction, 0), 1)
        guard value - last >= 0.01 || (value == 1 && last < 1) else { return }
        last = value
        report(value)
    }
}
