import Foundation
import SQLCipherCore

/// The check before every open that a `-journal` or `-wal` beside the database is safe to
/// replay: opening never changes a file before the key is proven, and never replays a sidecar
/// that does not belong.
///
/// SQLite plays back a hot `-journal` on the first read and recovers a `-wal` into its index on
/// the first read, whatever key the connection holds: the journal's pages are written raw into
/// the database, and on the last connection's close the WAL's frames are checkpointed raw into
/// it and the `-wal` and `-shm` deleted (SQLite 3.15.2 has no `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`).
/// So a wrong password used to checkpoint and delete a `-wal`, roll back and delete a journal,
/// and a `-journal` or `-wal` of another database, copied beside this one, was written into it.
/// A read-only connection is no way out on this SQLite: it still creates the `-shm`, and a hot
/// journal makes it fail (`SQLITE_READONLY_ROLLBACK`) without telling whether the key is right.
///
/// What ``run(path:mode:key:configuration:)`` does instead, before the real open:
/// 1. No `-journal` and no `-wal` (the common case): nothing, two `stat` calls.
/// 2. Otherwise a probe connection that runs no statement asks SQLite's own file lock
///    (see `Connection+FileLock.swift`) who else is there. A `-wal` while another connection,
///    in any process or this one, holds the database open (every WAL connection keeps a SHARED
///    lock) is in use: the open goes ahead as SQLite intends, without any copy, and a wrong key
///    cannot checkpoint (that needs the EXCLUSIVE lock the other connection prevents). A
///    `-journal` whose header is zero, or whose writer still holds its RESERVED lock, is not hot:
///    SQLite leaves it alone, and so do we.
/// 3. A `-wal` too short to hold a frame can change nothing in the database, but a failed open
///    would delete it: the key is proven first on the main file alone, opened immutable
///    (`file:…?immutable=1`), which reads no sidecar and writes nothing.
/// 4. A hot journal, or a `-wal` with frames that no connection uses: the database and the
///    sidecar are copied (under the lock, so no one writes meanwhile) into a private temporary
///    directory, and SQLite replays the copy; the copy must open with the key, hold a whole number
///    of pages and pass `quick_check` (which checks every page's HMAC). Only then does the real
///    open go ahead and SQLite replay the real sidecar, exactly as it did on the copy. If the
///    copy fails but the main file alone (immutable) opens and checks with the key, the sidecar
///    is foreign: ``DatabaseManagerError/foreignSidecar(path:sidecar:)`` — unless the sidecar's
///    page 1 carries the file's own salt and the replayed page 1 does not decrypt: then the key
///    was changed in place (a committed rekey in the `-wal`, or a rolled-back one whose journal
///    is under the old key) and the key given is wrong for the database as SQLite will see it
///    (``DatabaseManagerError/incorrectPasswordOrSettings(path:)``). If the main file alone
///    fails too, that error is reported (a wrong password, a damaged file). Either way nothing
///    beside the database changed.
///
/// Costs (BENCHMARKS.md): case 1 is free, case 2 one extra `sqlite3_open_v2` and two `fcntl`
/// locks, case 4 a copy and a full read of the database, paid only after a crash or when a
/// stray file lies beside the database. What is not covered: a file changed between the check
/// and the real open (another process starting at that instant), and a sidecar of this same
/// database taken at another time (its pages decrypt and may pass `quick_check`).
enum SidecarCheck {
    /// Refuses, before SQLite may touch the real file, a sidecar that would change it without
    /// proof that the key is right and that replaying it gives a sound database.
    static func run(path: String, mode: Connection.Mode, key: SecretBytes?, configuration: DatabaseConfiguration) throws {
        guard mode == .readWrite || mode == .readOnly else { return }
        let journal = path + "-journal"
        let wal = path + "-wal"
        guard FileSystem.size(of: journal) != nil || FileSystem.size(of: wal) != nil else { return }
        guard let size = FileSystem.size(of: path) else { return }
        // SQLite deletes the sidecars of an empty file; the open must fail first.
        guard size > 0 else { throw DatabaseManagerError.notADatabase(path: path, reason: "the file is empty (0 bytes)") }
        let probe: Connection
        do { probe = try Connection(path: path, mode: .readWrite) } catch { return }  // the real open reports it
        defer {
            probe.unlockMainFile()
            probe.close()
        }
        var checked = configuration
        // The copies checked here lie elsewhere, without the salt file of a plaintext header.
        if key != nil, configuration.headerSalt == nil {
            checked.headerSalt = try Unlocking.headerSalt(path: path, configuration: configuration)
        }
        let candidate = Candidate(key: key, configuration: checked)
        switch try state(probe, journal: journal, wal: wal) {
        case .absent, .inUse:
            return
        case .frameless:
            probe.unlockMainFile()
            try candidate.verify(path, mode: .readOnlyImmutable, thorough: configuration.checksIntegrityOnOpen)
        case .replayable(let sidecar):
            let scratchDirectory = try FileSystem.ScratchDirectory(beside: path)
            defer { scratchDirectory.remove() }
            let scratch = scratchDirectory.path
            let copy = scratch + "/" + (path as NSString).lastPathComponent
            do {
                for suffix in ["-journal", "-wal"] where FileSystem.size(of: path + suffix) != nil {
                    try FileSystem.copyFile(path + suffix, to: copy + suffix)
                }
                try probe.copyMainFile(to: copy)
            } catch {
                throw DatabaseManagerError(diagnosing: error, path: scratch)
            }
            probe.unlockMainFile()
            try candidate.verifyReplay(copy, of: path, sidecar: sidecar)
        }
    }

    /// What lies beside the database, as SQLite would treat it on the next read.
    enum State: Equatable {
        /// No sidecar SQLite would act on (none, or a journal that is not hot).
        case absent
        /// A connection (this process or another) has the database open: the sidecar is its own.
        case inUse
        /// A `-wal` without a single frame.
        case frameless
        /// A hot `-journal` or a `-wal` with frames that no connection uses.
        case replayable(sidecar: String)
    }

    /// Takes SHARED then tries EXCLUSIVE on the probe (left held, so no one writes while the
    /// files are copied; the caller unlocks) and classifies the sidecars the way SQLite's
    /// pager does (`hasHotJournal`, `pagerOpenWalIfPresent`).
    static func state(_ probe: Connection, journal: String, wal: String) throws -> State {
        do { try probe.lockMainFile(.shared) } catch let error as SQLiteError where error.code == .busy {
            return .inUse  // a writer is committing or rolling back right now
        }
        let walSize = FileSystem.size(of: wal)
        let journalHeader = DatabaseFile(path: journal).header(count: 1) ?? []
        let journalHasHeader = journalHeader.first.map { $0 != 0 } ?? false
        let hotJournal = try journalHasHeader && !probe.mainFileIsReservedElsewhere()
        guard walSize != nil || hotJournal else { return .absent }
        do { try probe.lockMainFile(.exclusive) } catch let error as SQLiteError where error.code == .busy {
            // Every WAL connection keeps a SHARED lock for as long as it is open.
            if walSize != nil { return .inUse }
            // A hot journal and a reader: the SHARED lock still keeps every writer out.
        } catch {
            // A file this process may only read: SHARED still keeps writers out.
        }
        if hotJournal { return .replayable(sidecar: journal) }
        if let walSize, walSize > 32 { return .replayable(sidecar: wal) }
        return .frameless
    }

    /// The key and settings a candidate file is checked with.
    struct Candidate {
        let key: SecretBytes?
        let configuration: DatabaseConfiguration

        /// Opens `target` as `connect` does, checks its length and, when `thorough`, every page
        /// (`quick_check`).
        func verify(_ target: String, mode: Connection.Mode, thorough: Bool) throws {
            let connection = try Unlocking.unlockedConnection(path: target, mode: mode, key: key, configuration: configuration)
            defer { connection.close() }
            try Unlocking.checkFileLength(connection, path: target)
            if thorough { try IntegrityCheck.verify(connection, path: target) }
        }

        /// Checks the replayed copy; when it fails for its content, tells a wrong key or a
        /// damaged database (the main file alone fails too) from a foreign sidecar.
        func verifyReplay(_ copy: String, of path: String, sidecar: String) throws {
            do {
                try verify(copy, mode: .readWrite, thorough: true)
            } catch {
                let failure = DatabaseManagerError(diagnosing: error, path: copy)
                switch failure {
                case .incorrectPasswordOrSettings, .notADatabase, .corrupt: break
                case let other: throw other
                }
                // The database's own sidecar, and page 1 after it does not decrypt: a key
                // changed in place (and committed there), so the key given is not the one now.
                if case .incorrectPasswordOrSettings = failure, let salt = KeyDerivation.salt(ofFileAt: path),
                    SidecarCheck.sidecar(sidecar, holdsPageOneWithSalt: salt)
                {
                    throw DatabaseManagerError.incorrectPasswordOrSettings(path: path)
                }
                try verify(path, mode: .readOnlyImmutable, thorough: true)
                throw DatabaseManagerError.foreignSidecar(path: path, sidecar: sidecar)
            }
        }
    }
}
