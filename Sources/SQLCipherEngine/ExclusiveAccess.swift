import Foundation
import SQLCipherCore

// MARK: - ExclusiveAccess

/// The file an ``ExportOperation`` replaces, held by one connection that no other connection,
/// in any process, can share, from before the export until the copy is installed. A copy can
/// replace a file by `rename` only while nobody else has it open: a connection left on the old
/// file would read and write it after the rename, and in WAL mode share the new file's `-wal`
/// by name.
///
/// - `PRAGMA locking_mode = EXCLUSIVE` and `BEGIN EXCLUSIVE`: SQLite's EXCLUSIVE lock on the
///   database file, kept after the (empty) transaction for as long as the connection is open.
///   It waits up to the busy timeout for other connections to end their transactions; in WAL
///   mode every connection holds a SHARED lock while it is open, so it is granted only when no
///   other connection has the database open. Meanwhile nobody else can read or write it.
/// - Rollback-journal mode: a connection between transactions holds no lock, so the other
///   processes that have the file open are looked up (``FileSystem/otherProcesses(withOpen:)``)
///   once the lock is held, and again after the rename for the old file (``install(_:)``).
/// - Before the install, ``settle()`` checkpoints the `-wal` into the file
///   (`wal_checkpoint(TRUNCATE)`, synchronous FULL) and removes the `-wal`, `-shm` and `-journal`,
///   durably: the new file never has a sidecar of the old one beside it.
/// - The connection is closed with ``Connection/keepWALOnClose()``: its close must not delete
///   the `-wal` and `-shm` at the path, which by then are the new file's.
package final class ExclusiveAccess {
    package let connection: Connection
    let target: String
    /// `true` when the file is in WAL mode.
    let isWAL: Bool

    private init(connection: Connection, target: String, isWAL: Bool) {
        self.connection = connection
        self.target = target
        self.isWAL = isWAL
    }

    /// Takes the EXCLUSIVE lock on `connection` (a connection of its own to `target`, keyed if
    /// encrypted), waiting up to `timeout` seconds, then refuses when another process has the
    /// file open. The connection is closed on any failure.
    ///
    /// - Throws: ``EngineFailure/openElsewhere(path:processID:processName:)`` naming the
    ///   other process, ``EngineFailure/busy(path:underlying:)`` when another connection
    ///   of this process holds it.
    static func take(_ connection: Connection, target: String, timeout: TimeInterval) throws -> ExclusiveAccess {
        let access: ExclusiveAccess
        do {
            try connection.executeScript("PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = FULL")
            try lock(connection, timeout: timeout)
            let isWAL = try connection.text("PRAGMA journal_mode")?.lowercased() == "wal"
            access = ExclusiveAccess(connection: connection, target: target, isWAL: isWAL)
        } catch let error as SQLiteError where error.code == .busy || error.code == .locked {
            close(connection)
            throw refusal(target: target, underlying: error)
        } catch {
            close(connection)
            throw error
        }
        if let other = access.otherOpeners().first {
            access.close()
            throw EngineFailure.openElsewhere(path: target, processID: other.processID, processName: other.name)
        }
        if access.isOpenTwiceHere {
            access.close()
            throw EngineFailure.busy(path: target, underlying: sharedHere)
        }
        return access
    }

    deinit { close() }

    /// `BEGIN EXCLUSIVE; COMMIT`, repeated until `timeout`: in WAL mode SQLite asks for the
    /// EXCLUSIVE lock once, without its busy handler.
    private static func lock(_ connection: Connection, timeout: TimeInterval) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            do {
                try connection.executeScript("BEGIN EXCLUSIVE; COMMIT")
                return
            } catch let error as SQLiteError where error.code == .busy && Date() < deadline {
                if !connection.isAutocommit { try? connection.executeScript("ROLLBACK") }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    /// Why the lock was not granted: the other process that has the file open (from `/proc`, or
    /// in WAL mode SQLite's lock on the `-shm`'s byte 128, its "DMS" byte), or `busy` when none
    /// is found (another connection of this process).
    private static func refusal(target: String, underlying: SQLiteError) -> EngineFailure {
        if let other = FileSystem.otherProcesses(withOpenAt: ([""] + FileSystem.sidecarSuffixes).map { target + $0 }).first {
            return .openElsewhere(path: target, processID: other.processID, processName: other.name)
        }
        // Without /proc, SQLite's lock on the -shm names a WAL reader. The probe stays open for
        // the process's lifetime: closing a descriptor would drop every lock this process holds
        // on the file, another connection's of this process included (see FileSystem.LockProbe).
        if !FileSystem.canListOpenFiles,
            let pid = FileSystem.LockProbe.keptOpen(path: target + "-shm")?.otherProcessLocking(offset: 128)
        {
            return .openElsewhere(path: target, processID: Int(pid), processName: nil)
        }
        return .busy(path: target, underlying: underlying)
    }

    /// `true` when another connection of this process (one the manager does not know, such as
    /// a plain SQLite connection) has the file open beside this one: it holds no lock between
    /// transactions, and would go on with the old file after the install.
    var isOpenTwiceHere: Bool {
        guard let file = FileSystem.identity(of: target) else { return false }
        return (FileSystem.descriptorsOfThisProcess(on: file) ?? 1) > 1
    }

    static let sharedHere = SQLiteError(
        extendedCode: .busy, message: "another connection of this process has the database open: close it first")

    /// The other processes that have the database or one of its sidecars open.
    func otherOpeners() -> [OpenerProcess] {
        FileSystem.otherProcesses(withOpenAt: ([""] + FileSystem.sidecarSuffixes).map { target + $0 })
    }

    /// Settles the old file's sidecars before the install: WAL, checkpoints every frame into
    /// the file and flushes it (`wal_checkpoint(TRUNCATE)` under synchronous FULL, then `fsync`);
    /// then removes the `-wal`, `-shm` and `-journal` and flushes the directory. After this the
    /// file alone holds every committed row, and no sidecar of it (a plaintext `-wal` beside an
    /// encrypted file) can come back after a power loss.
    func settle() throws {
        if isWAL {
            let result = try connection.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
            _ = try result.step()
            guard result.int64(at: 0) == 0 else {
                throw EngineFailure.busy(
                    path: target, underlying: SQLiteError(extendedCode: .busy, message: "the -wal could not be checkpointed"))
            }
        }
        try connection.syncMainFile()
        for suffix in FileSystem.sidecarSuffixes { try FileSystem.remove(target + suffix) }
        try FileSystem.sync(DatabaseFile(path: target).directory)
    }

    /// The second name the old file keeps during the install (``install(_:)``).
    package static func previousName(of target: String) -> String { target + ".scm-previous" }

    /// A failure after the copy was renamed over the target, when the old file could not be
    /// put back: the journal stays, and recovery finishes the install (``OperationJournal``).
    struct LeftForRecovery: Error {
        let underlying: any Error
    }

    /// Renames the verified copy over the target while the old file keeps a second name
    /// (`<target>.scm-previous`), then looks for a process that opened the old file meanwhile
    /// (it waits for this connection's lock, and would use the old file once it is released):
    /// with one, the old file is put back and the copy given up; without, the second name goes.
    /// Every `link`, `rename` and `unlink` is followed by an `fsync` of the directory.
    ///
    /// - Throws: while the old file is at the path: a file-system error, or
    ///   ``EngineFailure/openElsewhere(path:processID:processName:)`` once the old file
    ///   was put back; ``LeftForRecovery`` when it could not be.
    package func install(_ copy: String) throws {
        let previous = Self.previousName(of: target)
        let directory = DatabaseFile(path: target).directory
        guard let old = FileSystem.identity(of: target) else { throw EngineFailure.fileNotFound(path: target) }
        // A link or another user's file planted at the second name is refused and left alone.
        try FileSystem.removeLeftover(previous)
        try FileSystem.link(target, to: previous)
        try FileSystem.sync(directory)
        FaultPause.at("linked")
        do {
            try FileSystem.rename(copy, to: target)
        } catch {
            try? FileSystem.remove(previous)
            try? FileSystem.sync(directory)
            throw error
        }
        do {
            try FileSystem.sync(directory)
            FaultPause.at("installed")
            let late = FileSystem.otherProcesses(withOpen: [old]).first
            if late != nil || (FileSystem.descriptorsOfThisProcess(on: old) ?? 1) > 1 {
                try FileSystem.rename(previous, to: target)
                try FileSystem.sync(directory)
                guard let late else { throw EngineFailure.busy(path: target, underlying: Self.sharedHere) }
                throw EngineFailure.openElsewhere(path: target, processID: late.processID, processName: late.name)
            }
            try FileSystem.remove(previous)
            try FileSystem.sync(directory)
        } catch let error as EngineFailure {
            throw error
        } catch {
            throw LeftForRecovery(underlying: error)
        }
    }

    /// Closes the connection without touching the `-wal` or `-shm` at the path.
    package func close() { Self.close(connection) }

    private static func close(_ connection: Connection) {
        guard !connection.isClosed else { return }
        if !connection.isAutocommit { try? connection.executeScript("ROLLBACK") }
        connection.keepWALOnClose()
        connection.close()
    }
}
