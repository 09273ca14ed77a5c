import Foundation
import SQLCipherManager

// MARK: - Key-slot workloads

extension SwiftWorkloads {
    /// `--only keyslots`: a password change through key slots (`keySlots.change(password:to:)`: one
    /// Argon2id check of the old password, one calibration, one derivation of the new one, one
    /// durable slot-file write) or through the crash-safe export rekey (`rekey(password:)`), on a
    /// database of `job.rows` MiB; and an unlock through a password slot (Argon2id, then the
    /// raw data key: no PBKDF2), freshly calibrated. The files are copied from the parent's
    /// fixtures untimed.
    func keySlots() throws -> Measured {
        let isSlots = job.workload != .slotRekey
        let source = fixtures.keySlotFixture(megabytes: job.rows, slots: isSlots)
        let copy = fixtures.scratch("slots")
        Fixtures.remove(copy.path)
        try? FileManager.default.removeItem(atPath: copy.path + ".scm-keys")
        defer {
            Fixtures.remove(copy.path)
            try? FileManager.default.removeItem(atPath: copy.path + ".scm-keys")
        }
        try FileManager.default.copyItem(at: source, to: copy)
        if isSlots { try FileManager.default.copyItem(atPath: source.path + ".scm-keys", toPath: copy.path + ".scm-keys") }
        let manager = DatabaseManager(url: copy, configuration: DatabaseConfiguration())
        var measured: Measured
        switch job.workload {
        case .slotChange:
            measured = try Measured.time {
                try manager.keySlots.change(password: Fixtures.password, to: Fixtures.newPassword)
                return 0
            }
        case .slotOpen:
            // Reseal the slot first (untimed), so its Argon2id is calibrated on this machine now.
            try manager.keySlots.change(password: Fixtures.password, to: Fixtures.password)
            return try Measured.time {
                try manager.open(password: Fixtures.password)
                manager.close()
                return 0
            }
        default:
            try manager.open(password: Fixtures.password)
            measured = try Measured.time {
                try manager.rekey(to: .password(Fixtures.newPassword))
                return 0
            }
            manager.close()
        }
        try manager.open(password: Fixtures.newPassword)
        defer { manager.close() }
        measured.checksum = Int64(try manager.readSync { db in try db.scalar(Int.self, "SELECT count(*) FROM blob") } ?? -1)
        return measured
    }
}

extension Fixtures {
    /// `pw-<MiB>.db` (a password database of about `megabytes` MiB of 4,000-byte random blobs)
    /// or `slots-<MiB>.db` (the same converted to key slots, with its `.scm-keys`).
    func keySlotFixture(megabytes: Int, slots: Bool) -> URL {
        directory.appendingPathComponent("fixtures").appendingPathComponent("\(slots ? "slots" : "pw")-\(megabytes)mib.db")
    }

    /// Builds both key-slot fixtures when missing (through the library; the conversion is an
    /// export rekey of the whole file, once).
    func ensureKeySlotFixtures(megabytes: Int) throws {
        let password = keySlotFixture(megabytes: megabytes, slots: false)
        let slots = keySlotFixture(megabytes: megabytes, slots: true)
        guard !FileManager.default.fileExists(atPath: slots.path + ".scm-keys") else { return }
        try FileManager.default.createDirectory(at: password.deletingLastPathComponent(), withIntermediateDirectories: true)
        for url in [password, slots] {
            Self.remove(url.path)
            try? FileManager.default.removeItem(atPath: url.path + ".scm-keys")
        }
        let manager = DatabaseManager(url: password)
        try manager.create(password: Self.password)
        try manager.withDatabase { db in try db.execute("CREATE TABLE blob(id INTEGER PRIMARY KEY, data BLOB)") }
        try manager.withDatabase { db in
            try db.execute(
                """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT ?)
                INSERT INTO blob(data) SELECT randomblob(4000) FROM n
                """, megabytes * 256)
        }
        manager.close()
        try FileManager.default.copyItem(at: password, to: slots)
        let converting = DatabaseManager(url: slots)
        try converting.open(password: Self.password)
        try converting.keySlots.enable(password: Self.password)
        converting.close()
    }
}
