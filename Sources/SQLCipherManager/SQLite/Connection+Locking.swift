internal import CSQLCipher
import Foundation

// MARK: - File locks and the WAL's fate at close

extension Connection {
    /// Keeps the `-wal` and `-shm` when this connection closes (`SQLITE_FCNTL_PERSIST_WAL`).
    ///
    /// SQLite deletes them *by path* when the last connection to a WAL database closes. A
    /// connection left on a file that was just replaced by `rename` would then delete the
    /// sidecars of the new file at that path; with this set, it only closes its own handles.
    func keepWALOnClose() {
        var on: Int32 = 1
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
    }

    /// Raises this connection's lock on the main database file to EXCLUSIVE, waiting up to
    /// `timeout` seconds for readers to finish (``lockMainFile(_:)``: the file's own `xLock`,
    /// as SQLite's pager would before a commit). Needs a write transaction
    /// (RESERVED) first; the lock goes when the transaction ends.
    ///
    /// While it is held no other connection, in this process or another, can read or write
    /// the file in rollback-journal mode.
    func lockExclusively(timeout: TimeInterval) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            do {
                return try lockMainFile(.exclusive)
            } catch let error as SQLiteError where error.code == .busy {
                guard Date() < deadline else {
                    throw SQLiteError(
                        extendedCode: error.extendedCode,
                        message: "another connection kept reading the database for longer than the busy timeout")
                }
                sqlite3_sleep(1)
            }
        }
    }
}
