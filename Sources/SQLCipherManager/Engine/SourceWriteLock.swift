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
/// - Before the rename, ``markRetired()`` overwrites the old file's first 64 bytes (SQLite's
///   header, or SQLCipher's salt and the start of page 1) with ``retiredHeader``. In
///   rollback-journal mode that single write retires the file for every connection still open
///   on it, whatever program owns it: each connection checks bytes 24–39 when its next
///   transaction starts, finds them changed, drops its cache and reads page 1 again, which no
///   longer decrypts (HMAC) or no longer starts with SQLite's header: `SQLITE_NOTADB`, never a
///   write. In both modes it stops every connection opened after it (SQLCipher derives its key
///   from those first 16 bytes), and the same bytes tell recovery, without a key, that the file
///   was retired (see ``OperationJournal/Phase/retire``); ``restoreHeader(_:)`` puts the
///   original back. (This connection never checkpoints, so the header stays in WAL mode too.)
/// - ``tombstoneReplacedFile()`` writes, in the same transaction, a schema entry that SQLite
///   cannot parse and commits it: every connection on the old file then fails its next
///   statement with "malformed database schema (scm_replaced)". In WAL mode this commit, into
///   the `-wal`, right after the header write, stops the connections that were open before (a
///   WAL reader whose snapshot did not change keeps page 1 in its cache and would never see
///   the new header), so it comes before the rename (``untombstone()`` undoes it if the rename
///   fails); in rollback-journal mode it comes after the rename and only names the cause. The connection keeps its journal in memory
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
    /// Where ``markRetiredInWAL()`` wrote in the `-wal`, and the bytes it overwrote there.
    private var retiredFrame: (offset: Int64, bytes: [UInt8])?

    /// Takes the lock on `connection`, a connection of its own to the file (keyed if encrypted).
    init(connection: Connection) throws {
        self.connection = connection
        do {
            let mode = try connection.prepare("PRAGMA journal_mode")
            _ = try mode.step()
            isWAL = mode.text(at: 0)?.lowercased() == "wal"
            // WAL: no commit of this connection may checkpoint the retired header away.
            try connection.executeScript(isWAL ? "PRAGMA wal_autocheckpoint = 0" : "PRAGMA journal_mode = MEMORY")
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

    /// WAL, after ``tombstoneReplacedFile()``: writes ``retiredHeader`` over the start of the
    /// page 1 that commit appended to the `-wal` (its last frame of page 1 of the current
    /// generation, whose salts are the `-wal` header's). A checkpoint — another program's close
    /// after a kill — then copies the retired header into the file instead of the real page 1,
    /// and a connection that reads page 1 from the `-wal` fails there too (the frame checksums
    /// are checked only when SQLite rebuilds its index, which then ends the `-wal` before it).
    func markRetiredInWAL() throws {
        let wal = FileSystem.resolvedPath(connection.path) + "-wal"
        guard let frame = try Self.lastFrameOfPageOne(in: wal) else { return }
        let original = try FileSystem.bytes(of: wal, count: Self.retiredHeader.count, at: frame + 24)
        retiredFrame = (frame + 24, original)
        try FileSystem.overwrite(wal, with: Self.retiredHeader, at: frame + 24)
    }

    /// Un-retires the old file after a failed rename, in this order: the `-wal` frame of
    /// ``markRetiredInWAL()`` gets its bytes back (else SQLite, rebuilding its index from the
    /// `-wal` after a crash, would end it at that frame and drop every commit after it; when the
    /// install had already removed the `-wal` at the path, only open connections still reach it,
    /// through their index, and nothing rebuilds one from it), the schema entry goes
    /// (``untombstone()``), the header is written back. `false` when a step failed.
    func unretire(header: [UInt8]) -> Bool {
        let wal = FileSystem.resolvedPath(connection.path) + "-wal"
        if let retiredFrame, FileSystem.size(of: wal) != nil {
            guard (try? FileSystem.overwrite(wal, with: retiredFrame.bytes, at: retiredFrame.offset)) != nil else { return false }
        }
        retiredFrame = nil
        guard !isWAL || (try? untombstone()) != nil else { return false }
        return (try? restoreHeader(header)) != nil
    }

    /// The offset of the last frame of page 1 in a `-wal` (24-byte frame headers: page number,
    /// size after commit, the two salts of the header at bytes 16–23, checksums), `nil` when none.
    static func lastFrameOfPageOne(in wal: String) throws -> Int64? {
        let header = try FileSystem.bytes(of: wal, count: 32, at: 0)
        guard header.count == 32 else { return nil }
        let pageSize = Int64(DatabaseFile.headerField(header, at: 8, count: 4))
        guard pageSize >= 512, let size = FileSystem.size(of: wal) else { return nil }
        var found: Int64?
        var offset: Int64 = 32
        while offset + 24 + pageSize <= size {
            let frame = try FileSystem.bytes(of: wal, count: 24, at: offset)
            guard frame.count == 24, frame[8..<16] == header[16..<24] else { break }
            if DatabaseFile.headerField(frame, at: 0, count: 4) == 1 { found = offset }
            offset += 24 + pageSize
        }
        return found
    }

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
