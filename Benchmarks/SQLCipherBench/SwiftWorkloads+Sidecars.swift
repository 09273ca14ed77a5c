import Foundation
import SQLCipherManager

// MARK: - Opens beside a -wal (the sidecar check)

extension SwiftWorkloads {
    /// A scratch copy of the fixture in WAL mode with `rows / 10` rows in its -wal, held open
    /// by an owner manager while another manager's open + close is timed.
    func openLiveWAL() throws -> Measured {
        let url = try walCopy("live")
        defer { Fixtures.remove(url.path) }
        let owner = try walOwner(url)
        defer { owner.close() }
        let manager = DatabaseManager(url: url, configuration: configuration)
        return try Measured.time {
            try manager.open(password: Fixtures.password)
            manager.close()
            return 0
        }
    }

    /// The same files copied as a crash leaves them (the owner still open while copying), then
    /// one open + close with no other connection: the check's copy, replay and quick_check,
    /// SQLite's recovery, and the checkpoint at close.
    func openAfterCrash() throws -> Measured {
        let url = try walCopy("crash-source")
        defer { Fixtures.remove(url.path) }
        let crashed = fixtures.scratch("crashed")
        Fixtures.remove(crashed.path)
        defer { Fixtures.remove(crashed.path) }
        let owner = try walOwner(url)
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: url.path + suffix, toPath: crashed.path + suffix) }
        owner.close()
        let manager = DatabaseManager(url: crashed, configuration: configuration)
        return try Measured.time {
            try manager.open(password: Fixtures.password)
            manager.close()
            return 0
        }
    }

    private func walCopy(_ name: String) throws -> URL {
        let url = fixtures.scratch(name)
        Fixtures.remove(url.path)
        try FileManager.default.copyItem(at: fixtures.database(rows: job.rows, encrypted: true, pageSize: job.pageSize), to: url)
        return url
    }

    /// A manager holding `url` open in WAL mode with a tenth of the rows rewritten into the -wal.
    private func walOwner(_ url: URL) throws -> DatabaseManager {
        let owner = DatabaseManager(url: url, configuration: configuration)
        try owner.open(password: Fixtures.password)
        try owner.withDatabase { db in
            _ = try db.scalar(String.self, "PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA wal_autocheckpoint = 0")
            try db.execute("UPDATE bench SET n1 = n1 + 1 WHERE id % 10 = 0")
        }
        return owner
    }
}
