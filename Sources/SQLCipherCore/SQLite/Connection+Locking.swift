internal import CSQLCipher
import Foundation

// MARK: - File locks and the WAL's fate at close

extension Connection {
    /// Keeps the `-wal` and `-shm` when this connection closes (`SQLITE_FCNTL_PERSIST_WAL`).
    ///
    /// SQLite deletes them *by path* when the last connection to a WAL database closes. A
    /// connection left on a file that was just replaced by `rename` would then delete the
    /// sidecars of the new file at that path; with this set, it only closes its own handles.
    package func keepWALOnClose() {
        var on: Int32 = 1
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
    }

}
