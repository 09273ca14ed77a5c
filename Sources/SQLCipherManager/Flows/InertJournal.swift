import Foundation
import SQLCipherCore

// MARK: - InertJournal

/// A `-journal` beside a database that SQLite would never play back, removed under SQLite's own
/// lock.
///
/// SQLite writes a rollback journal's header with its first 12 bytes (the magic number and the
/// page count) zero, and writes them only after the journaled pages are synced, just before it
/// changes the database (pager.c, `writeJournalHdr` and `syncJournal`). A journal whose first
/// byte is zero is not hot (`hasHotJournal`): no connection rolls it back, and it stays beside
/// the database until the next write, so users copy it around with the file. A crash before
/// that sync leaves exactly such a journal, and the database as it was.
///
/// Removed only when every one of these holds, checked in this order:
/// - no `-wal` (a WAL database's writers hold no lock on the main file that would show here);
/// - the journal is empty, or its first 12 bytes are zero (SQLite's own unsynced header; a
///   journal with any other header is left to SQLite, which rolls back a hot one on the next
///   read, after ``SidecarCheck`` has proven the replay);
/// - SQLite's RESERVED lock on the database is taken (through SQLite's VFS, so it is the lock
///   every SQLite connection honours): no other connection, in any process, is writing, and
///   none can start while the journal is removed;
/// - no process has the journal open (a connection in `journal_mode = PERSIST` keeps it open
///   between transactions), which needs `/proc` (Linux): elsewhere nothing is removed;
/// - the header, read again under the lock, is still inert.
enum InertJournal {
    /// Removes the database's `-journal` when it is provably inert; `true` when it was removed.
    static func remove(atPath path: String) -> Bool {
        let journal = path + "-journal"
        guard FileSystem.size(of: journal) != nil, FileSystem.size(of: path + "-wal") == nil,
            (FileSystem.size(of: path) ?? 0) > 0, FileSystem.canListOpenFiles, isInert(journal)
        else { return false }
        guard let probe = try? Connection(path: path, mode: .readWrite) else { return false }
        defer {
            probe.unlockMainFile()
            probe.close()
        }
        do {
            try probe.lockMainFile(.shared)
            try probe.lockMainFile(.reserved)
        } catch {
            return false  // a writer holds the lock (its journal), or the file cannot be locked
        }
        guard FileSystem.otherProcesses(withOpenAt: [journal]).isEmpty,
            let identity = FileSystem.identity(of: journal), FileSystem.descriptorsOfThisProcess(on: identity) == 0,
            isInert(journal)
        else { return false }
        do {
            try FileSystem.remove(journal)
            try FileSystem.sync(DatabaseFile(path: path).directory)
        } catch {
            return false
        }
        return true
    }

    /// `true` for a journal SQLite never plays back and never wrote past its unsynced header:
    /// empty, or its first 12 bytes (magic number, page count) all zero.
    static func isInert(_ journal: String) -> Bool {
        guard let size = FileSystem.size(of: journal) else { return false }
        if size == 0 { return true }
        guard let header = DatabaseFile(path: journal).header(count: Int(min(size, 12))), header.count == min(size, 12) else {
            return false
        }
        return header.allSatisfy { $0 == 0 }
    }
}
