import Foundation
import SQLCipherCore

// MARK: - The connections a reopen replaces

/// The writer and idle readers that ``DatabaseManager/reopen()`` replaces, kept open until the
/// new writer is connected.
///
/// On WAL, closing the last connection checkpoints and deletes the `-wal` and `-shm`, and the
/// new connection makes them again (the `-shm` truncated, extended by eight writes and mapped);
/// and while no connection of ours holds the file, the sidecar check must prove the key on an
/// immutable open when it finds a frameless `-wal`. With these still open, the new connection
/// shares the `-shm` already mapped in this process, the sidecar check finds the `-wal` in use
/// (as it would for any other process's connection), and their closes, no longer the last,
/// leave the files alone.
final class RetiringConnections {
    private var connections: [Connection]
    /// Whether a database was open: then its close is announced (`didCloseDatabase`).
    let wasOpen: Bool

    init(_ connections: [Connection], wasOpen: Bool) {
        self.connections = connections
        self.wasOpen = wasOpen
    }

    /// Closes them (once; a second call does nothing). `keepingWAL` once the new connection is
    /// open: these closes must not delete the `-wal` and `-shm` at the path, which SQLite does
    /// by name when it thinks a connection is the last on its file (one still on a file that
    /// was renamed away meanwhile would delete the new file's sidecars).
    func close(keepingWAL: Bool) {
        for connection in connections {
            if keepingWAL { connection.keepWALOnClose() }
            connection.close()
        }
        connections.removeAll()
    }
}

extension DatabaseManager {
    /// Takes the writer and the idle readers out of the manager without closing them: the
    /// manager is closed, the connections are the caller's to close. A transaction the writer
    /// left open (a raw `BEGIN`) is rolled back now, as its close would: its locks must not
    /// keep the new connection out. A writer in exclusive locking mode (set by the app) keeps
    /// its lock between transactions: then every connection is closed now, as before.
    func detachConnections() -> RetiringConnections {
        let wasOpen = database != nil
        var connections = readers.detachAll()
        if let writer = database?.connection {
            if !writer.isAutocommit { try? writer.executeScript("ROLLBACK") }
            connections.append(writer)
        }
        database = nil
        let retiring = RetiringConnections(connections, wasOpen: wasOpen)
        if let writer = connections.last, (try? writer.text("PRAGMA locking_mode"))?.lowercased() != "normal" {
            retiring.close(keepingWAL: false)
        }
        return retiring
    }
}
