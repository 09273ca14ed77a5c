import Foundation

// MARK: - SourceWriteLock

/// The write lock on a file that an ``ExportOperation`` replaces, held on a connection of its
/// own from before the export starts until the verified copy is installed, so that no other
/// connection — in this process or another — commits to the file in between (a commit there
/// would land in the file that is then replaced, and be lost).
///
/// - `BEGIN IMMEDIATE` takes SQLite's RESERVED lock (rollback journal) or the WAL write lock,
///   waiting up to the busy timeout for a writer that is mid-transaction. Readers go on; the
///   exporting connection reads the file under it.
/// - Before the install, in rollback-journal mode, ``shutOutReaders(timeout:)`` raises it to
///   EXCLUSIVE, so no connection is inside a read transaction on the old file when it is
///   replaced (a WAL reader needs no such wait: it cannot write while the lock is held).
/// - After the install, ``retireReplacedFile()`` writes, in the same transaction, a schema
///   entry that SQLite cannot parse into the *old* file (which only connections still open on
///   it can reach) and commits it: every such connection, whatever program owns it, then fails
///   its next statement with "malformed database schema (…replaced…)" instead of writing into
///   a file that nobody will open again. In rollback mode the connection keeps its journal in
///   memory, so it never creates a `-journal` beside the new file.
/// - It is closed with ``Connection/keepWALOnClose()``, so it never deletes the new file's
///   `-wal` or `-shm`, which have the same names as the old file's.
final class SourceWriteLock {
    private let connection: Connection
    /// `true` when the file is in WAL mode (`PRAGMA journal_mode`).
    let isWAL: Bool
    private var isInTransaction = false
    /// Opened by ``otherProgramHavingWALOpen()``, closed after the connection (see ``FileSystem/LockProbe``).
    private var walProbe: FileSystem.LockProbe?

    /// Takes the lock on `connection`, a connection of its own to the file (keyed if encrypted).
    init(connection: Connection) throws {
        self.connection = connection
        do {
            let mode = try connection.prepare("PRAGMA journal_mode")
            _ = try mode.step()
            isWAL = mode.text(at: 0)?.lowercased() == "wal"
            if !isWAL { try connection.executeScript("PRAGMA journal_mode = MEMORY") }
            try connection.executeScript("BEGIN IMMEDIATE")
            isInTransaction = true
        } catch {
            connection.close()
            throw error
        }
    }

    deinit { close() }

    /// Rollback-journal mode: waits (up to `timeout` seconds) until no connection reads the
    /// file, then keeps every other connection out until the lock is released. WAL: nothing.
    func shutOutReaders(timeout: TimeInterval) throws {
        guard !isWAL else { return }
        try connection.lockExclusively(timeout: timeout)
    }

    /// WAL mode, once every other connection of this process to the file is closed: the
    /// process id of another program that has the database open (its shared lock on the
    /// `-shm`'s byte 128, SQLite's `UNIX_SHM_DMS`), or `nil`.
    func otherProgramHavingWALOpen() -> Int? {
        guard isWAL else { return nil }
        if walProbe == nil { walProbe = FileSystem.LockProbe(path: FileSystem.resolvedPath(connection.path) + "-shm") }
        return walProbe?.otherProcessLocking(offset: 128).map(Int.init)
    }

    /// The name of the schema entry that marks a replaced file; SQLite shows it in its error.
    static let tombstoneName = "scm_replaced"

    /// After the copy was renamed over the path: makes the old file refuse every statement of
    /// the connections still open on it (see the type's documentation), and ends the lock.
    func retireReplacedFile() throws {
        let version = try connection.prepare("PRAGMA schema_version")
        _ = try version.step()
        let next = version.int64(at: 0) &+ 1
        let name = Self.tombstoneName
        try connection.executeScript(
            """
            PRAGMA writable_schema = ON;
            INSERT INTO sqlite_master(type, name, tbl_name, rootpage, sql) VALUES ('table', '\(name)', '\(name)', 0,
              'CREATE TABLE "this file was replaced by a re-encrypted copy: open the database again"(');
            PRAGMA schema_version = \(next);
            COMMIT
            """)
        isInTransaction = false
    }

    /// Rolls back if still holding the lock, and closes the connection without touching the
    /// `-wal` or `-shm` at the path.
    func close() {
        guard !connection.isClosed else { return }
        if isInTransaction, !connection.isAutocommit { try? connection.executeScript("ROLLBACK") }
        isInTransaction = false
        connection.keepWALOnClose()
        connection.close()
        walProbe = nil
    }
}
