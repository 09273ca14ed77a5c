import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - Anti-rollback of the slot file

extension DatabaseManager {
    /// Refuses `file` when the database records a later revision of the slot file, or when the
    /// data key it gave (`key`) no longer opens the database (a file from before a rotation):
    /// ``KeySlotError/slotFileOutdated(path:database:)``. A file ahead of the record (a crash
    /// between the file's write and the record) raises the record. Any other failure to open
    /// is left to the open that follows, which explains it.
    func checkSlotRevision(_ file: KeySlotFile, key: SecretBytes, store: KeySlotStore, at slotPath: String) throws {
        let outdated = KeySlotError.slotFileOutdated(path: slotPath, database: store.database)
        if let open = database {
            let recorded = try KeySlotRevision.recorded(in: open.connection, databaseID: file.databaseID)
            guard file.currentRevision >= recorded else { throw outdated }
            return
        }
        let connection: Connection
        do {
            connection = try connectToFile(path: store.database, key: key)
        } catch let error as DatabaseManagerError {
            let refined = error.refinedUnlockFailure(
                path: store.database, pageSize: connectionConfiguration.cipher.expectedPageSize, rawKey: true)
            if case .incorrectKeyOrSettings = refined { throw outdated }
            return
        } catch {
            return
        }
        defer { connection.close() }
        let recorded = try KeySlotRevision.recorded(in: connection, databaseID: file.databaseID)
        guard file.currentRevision >= recorded else { throw outdated }
        // Revision 1 (a file never changed since its creation) needs no record: none is older.
        if file.currentRevision > max(recorded, 1) {
            try? KeySlotRevision.record(file.currentRevision, databaseID: file.databaseID, in: connection)
        }
    }

    /// After `file` was written: records its revision in the database, on the open connection
    /// or on one keyed with `key`. Best effort: the file is already in place, and when this
    /// fails (the database busy, its directory read-only) the next unlock records it.
    func recordSlotRevision(_ file: KeySlotFile, key: SecretBytes, store: KeySlotStore) {
        if let open = database {
            try? KeySlotRevision.record(file.currentRevision, databaseID: file.databaseID, in: open.connection)
            return
        }
        guard let connection = try? connectToFile(path: store.database, key: key)
        else { return }
        defer { connection.close() }
        try? KeySlotRevision.record(file.currentRevision, databaseID: file.databaseID, in: connection)
    }
}
