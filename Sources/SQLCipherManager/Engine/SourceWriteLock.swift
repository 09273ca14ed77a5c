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
/// - In rollback-journal mode, before the rename, ``markRetired()`` overwrites the old file's first 64 bytes (SQLite's
///   header, or SQLCipher's salt and the start of page 1) with ``retiredHeader``. In
///   rollback-journal mode that single write retires the file for every connection still open
///   on it, whatever program owns it: each connection checks bytes 24–39 when its next
///   transaction starts, finds them changed, drops its cache and reads page 1 again, which no
///   longer decrypts (HMAC) or no longer starts with SQLite's header: `SQLITE_NOTADB`, never a
///   write. The same bytes tell recovery, without a key, that the file was retired (see
///   ``OperationJournal/Phase/retire``); ``restoreHeader(_:)`` puts the original back.
/// - ``tombstoneReplacedFile()`` writes, in the same transaction, a schema entry that SQLite
///   cannot parse and commits it: every connection on the old file then fails its next
///   statement with "malformed database schema (scm_replaced)". In WAL mode this commit is
///   what retires the file (a WAL reader whose snapshot did not change keeps page 1 in its
///   cache and would never see a new header), so it comes before the rename, then
///   ``checkpointRetiredWAL(timeout:)`` puts it into the database file itself
///   (``untombstone()`` undoes it if the rename fails); in rollback-journal mode it comes after
///   the rename and only names the cause. The connection keeps its journal in memory
///   (rollback mode), so it never creates a `-journal` beside the new file.
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

    /// What ``markRetired()`` writes over the first bytes of a file it retires: 64 bytes that
    /// neither SQLite's header nor a SQLCipher salt (16 random bytes) ever start with.
    static let retiredHeader = Array("SQLCipherManager: replaced by a re-encrypted copy. Open again.  ".utf8)

    /// The old file's first bytes, which ``markRetired()`` overwrites (for the journal).
    func originalHeader() throws -> [UInt8] { try connection.readMainFile(count: Self.retiredHeader.count, at: 0) }

    /// Retires the old file, before the copy is renamed over it: one write of ``retiredHeader``
    /// at offset 0, through SQLite's own descriptor (see the type's documentation).
    func markRetired() throws { try connection.writeMainFile(Self.retiredHeader, at: 0) }

    /// Un-retires the old file: writes back the bytes ``originalHeader()`` returned.
    func restoreHeader(_ header: [UInt8]) throws { try connection.writeMainFile(header, at: 0) }

    /// `true` when the file that `connection` has open (or the file at a path, `header`) carries
    /// ``retiredHeader``: a replace retired it, and has renamed or is about to rename its copy over it.
    static func isRetired(_ connection: Connection) -> Bool {
        (try? connection.readMainFile(count: retiredHeader.count, at: 0)) == retiredHeader
    }

    /// The name of the schema entry that marks a replaced file; SQLite shows it in its error.
    static let tombstoneName = "scm_replaced"

    /// Makes the old file's schema unparseable (see the type's documentation) and commits,
    /// which ends the write lock: no connection can write to the file any more.
    func tombstoneReplacedFile() throws {
        let name = Self.tombstoneName
        try connection.executeScript(
            """
            PRAGMA writable_schema = ON;
            INSERT INTO sqlite_master(type, name, tbl_name, rootpage, sql) VALUES ('table', '\(name)', '\(name)', 0,
              'CREATE TABLE "this file was replaced by a re-encrypted copy: open the database again"(');
            PRAGMA schema_version = \(try schemaVersion() &+ 1);
            COMMIT
            """)
        isInTransaction = false
    }

    /// Takes the schema entry of ``tombstoneReplacedFile()`` out again (`writable_schema` lets
    /// this connection read past it), after a failed rename: the old file stays the database.
    /// When the entry was never committed, rolls it back.
    func untombstone() throws {
        guard connection.isAutocommit else {
            try connection.executeScript("ROLLBACK")
            isInTransaction = false
            return
        }
        try connection.executeScript(
            """
            BEGIN IMMEDIATE;
            DELETE FROM sqlite_master WHERE name = '\(Self.tombstoneName)';
            PRAGMA schema_version = \(try schemaVersion() &+ 1);
            PRAGMA writable_schema = OFF;
            COMMIT
            """)
    }

    /// WAL, once the schema entry is committed: copies the whole `-wal` into the file and
    /// empties it (`PRAGMA wal_checkpoint(TRUNCATE)`), waiting up to `timeout` seconds for
    /// readers, so that the entry is in the database file itself before the `-wal` at the path
    /// is removed, and a connection that opens the old file later reads it there.
    func checkpointRetiredWAL(timeout: TimeInterval) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let checkpoint = try connection.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
            _ = try checkpoint.step()
            if checkpoint.int64(at: 0) == 0 { return }
            guard Date() < deadline else {
                throw SQLiteError(
                    extendedCode: .busy, message: "another connection kept reading the database for longer than the busy timeout")
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    private func schemaVersion() throws -> Int64 {
        let version = try connection.prepare("PRAGMA schema_version")
        _ = try version.step()
        return version.int64(at: 0)
    }

    /// WAL, after the install: while another program still has the old file open (it opened it
    /// after the last check, and SQLite shows it by its shared lock on the old `-shm`'s byte 128),
    /// keeps this connection open, up to `timeout` seconds. Meanwhile its close cannot
    /// checkpoint the old file or delete the `-wal` and `-shm` at the path, which are the new
    /// file's by then: SQLite does that only with an exclusive lock on the old file.
    func waitForOtherPrograms(timeout: TimeInterval) {
        guard isWAL, let walProbe else { return }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while walProbe.otherProcessLocking(offset: 128) != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
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
