import Foundation
import SQLCipherCore

// MARK: - KeySlotRevision

/// Anti-rollback: the revision of the slot file, recorded inside the encrypted database.
///
/// Every write of `<db>.scm-keys` raises its ``KeySlotFile/revision`` (bound into the file's
/// authenticator, keyed with the data key, so it cannot be raised without that key) and then
/// records it in the table `scm_key_slots` of the database itself: one row, the database's
/// identity and the highest revision seen. An unlock reads the row with the data key the slot
/// gave and refuses a file whose revision is lower (``KeySlotError/slotFileOutdated(path:database:)``):
/// a copy of the file from before a password change or a removal no longer opens the database.
///
/// Why a table and not a header field: SQLCipher encrypts the header past the salt, and its
/// free fields are the application's (`user_version` drives migrations, `application_id` is
/// the app's own); a table is written in SQLite's own transaction, journaled and authenticated
/// by SQLCipher's page HMAC like any row. Other tools (the `sqlcipher` shell, `cipherdb exec`)
/// see the table; leave it alone. The file is written first and the row after, so a crash in
/// between leaves the file ahead of the row: a newer file is accepted and the row raised to
/// it at the next unlock. A database and slot file restored together from one backup match,
/// and open, as they did then.
package enum KeySlotRevision {
    static let table = "scm_key_slots"

    /// The revision the database records for `databaseID`; 0 when it records none (a database
    /// made before revisions, or not changed since its creation).
    package static func recorded(in connection: Connection, databaseID: Data) throws -> Int {
        let exists = try connection.int64("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(table)'")
        guard exists == 1 else { return 0 }
        let statement = try connection.prepare("SELECT revision FROM \(table) WHERE database_id = ?")
        try statement.bind(blob: databaseID, at: 1)
        guard try statement.step(), !statement.isNull(at: 0) else { return 0 }
        return Int(statement.int64(at: 0))
    }

    /// Records `revision` for `databaseID` (never lowering it) in one transaction; rows of an
    /// earlier key-slot life of the file (another identity) are dropped.
    package static func record(_ revision: Int, databaseID: Data, in connection: Connection) throws {
        // Inside a caller's open transaction the rows join it (BEGIN would fail there).
        if connection.isAutocommit {
            try connection.inTransaction { try write(revision, databaseID: databaseID, in: connection) }
        } else {
            try write(revision, databaseID: databaseID, in: connection)
        }
    }

    private static func write(_ revision: Int, databaseID: Data, in connection: Connection) throws {
        try connection.executeScript(
            "CREATE TABLE IF NOT EXISTS \(table)(database_id BLOB PRIMARY KEY NOT NULL, revision INTEGER NOT NULL)")
        let drop = try connection.prepare("DELETE FROM \(table) WHERE database_id IS NOT ?")
        try drop.bind(blob: databaseID, at: 1)
        try drop.step()
        let upsert = try connection.prepare(
            "INSERT OR REPLACE INTO \(table)(database_id, revision) VALUES "
                + "(?1, max(?2, coalesce((SELECT revision FROM \(table) WHERE database_id = ?1), 0)))")
        try upsert.bind(blob: databaseID, at: 1)
        try upsert.bind(int64: Int64(revision), at: 2)
        try upsert.step()
    }

    /// Drops the table (a conversion back to a password database has no slot file to check).
    package static func remove(in connection: Connection) throws {
        try connection.executeScript("DROP TABLE IF EXISTS \(table)")
    }
}
