import Foundation

// MARK: - Crash recovery

extension DatabaseManager {
    @discardableResult
    static func recoverInterruptedOperation(atPath path: String) throws -> RecoveryOutcome {
        // The journal, copy and lock sit beside the real file, as SQLite's own sidecars do.
        let target = FileSystem.resolvedPath(path)
        let journalPath = OperationJournal.path(for: target)
        let traces = [journalPath, journalPath + ".tmp", target + OperationLock.suffix]
        guard traces.contains(where: { FileSystem.size(of: $0) != nil }) else { return .nothingToRecover }
        do {
            // An operation still running elsewhere holds the lock: leave its files alone.
            guard let lock = try OperationLock.acquire(for: target) else {
                throw DatabaseManagerError.operationInProgress(path: target)
            }
            defer { lock.release() }
            guard let journal = try OperationJournal.read(for: target) else {
                try FileSystem.remove(journalPath + ".tmp")
                return .nothingToRecover
            }
            guard journal.temporaryName == ExportOperation.temporaryName(for: target, operation: journal.operation) else {
                throw DatabaseManagerError.recoveryFailed(
                    path: OperationJournal.path(for: target), reason: "the journal names an unexpected temporary file")
            }
            let outcome = try resolve(journal, target: target)
            try FileSystem.removeDatabaseFiles(journal.temporaryPath(for: target))
            try OperationJournal.remove(for: target)
            return outcome
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: path)
        }
    }

    /// Installs a verified copy (phase `install`) or leaves the target as it was (phase
    /// `export`, or a target that was written to or replaced since the copy was verified, or a
    /// copy whose fingerprint is not the one recorded when it was verified). Phase `retire`:
    /// ``resolveRetire(_:target:temporary:)``.
    private static func resolve(_ journal: OperationJournal, target: String) throws -> RecoveryOutcome {
        let temporary = journal.temporaryPath(for: target)
        guard journal.phase != .export else { return .rolledBack }
        if journal.phase == .retire { return try resolveRetire(journal, target: target, temporary: temporary) }
        guard DatabaseFile(path: temporary).exists else { return .completed }
        guard isVerifiedCopy(temporary, of: journal) else { return .discardedUnprovenCopy }
        switch journal.install {
        case .replace:
            guard !ExportOperation.hasLiveSidecar(target),
                journal.targetStamp == nil || journal.targetStamp == FileSystem.stamp(of: target)
            else { return .rolledBack }
            try ExportOperation.installCopy(temporary, at: target, mode: .replace)
        case .create:
            if !DatabaseFile(path: target).exists {
                try ExportOperation.installCopy(temporary, at: target, mode: .create)
            }
        }
        return .completed
    }

    /// A replace that died while retiring the old file. Without the retired header the retire
    /// never happened (or the copy is already renamed in): the target is the database (and may
    /// hold rows written since, in its `-wal` too), the copy goes. With it, nobody can have
    /// written to the target since: the verified copy, which has every committed row, is
    /// renamed over it (with the target's sidecars, which hold nothing
    /// newer). A copy that is not the verified one is discarded and the target un-retired, in
    /// that very file only: in WAL mode its `-wal` first goes back to what it was before the
    /// schema entry was committed (``rewindWAL(_:to:)``), then its original header is written back.
    private static func resolveRetire(_ journal: OperationJournal, target: String, temporary: String) throws -> RecoveryOutcome {
        if let walMark = journal.walMark, journal.retiredHeader == nil {
            return try resolveSchemaOnlyWALRetire(journal, walMark: walMark, target: target, temporary: temporary)
        }
        guard DatabaseFile(path: target).header(count: SourceWriteLock.retiredHeader.count) == SourceWriteLock.retiredHeader else {
            return DatabaseFile(path: temporary).exists ? .rolledBack : .completed
        }
        if isVerifiedCopy(temporary, of: journal) {
            try ExportOperation.installCopy(temporary, at: target, mode: .replace)
            return .completed
        }
        guard let header = journal.retiredHeader, let stamp = journal.targetStamp, FileSystem.stamp(stamp, isOf: target) else {
            throw DatabaseManagerError.recoveryFailed(
                path: OperationJournal.path(for: target), reason: "the file was retired but its verified copy is gone or changed")
        }
        if let walMark = journal.walMark { try rewindWAL(target, to: walMark) }
        let connection = try Connection(path: target, mode: .readWrite)
        defer { connection.close() }
        try connection.writeMainFile(header, at: 0)
        return .discardedUnprovenCopy
    }

    /// A WAL replace journaled by the first version of the retire, which committed and
    /// checkpointed the schema entry but wrote no header: the verified copy is renamed over the
    /// file whenever it is there. Without it, the old file, if it is still the one at the path,
    /// gets back its `-wal` as it was before the commit when the entry is still only there
    /// (``rewindWAL(_:to:)``). Once the entry is in the file only its key could take it out:
    /// the file is left as it is, and opening it fails naming `scm_replaced`.
    private static func resolveSchemaOnlyWALRetire(
        _ journal: OperationJournal, walMark: String, target: String, temporary: String
    ) throws -> RecoveryOutcome {
        if isVerifiedCopy(temporary, of: journal) {
            try ExportOperation.installCopy(temporary, at: target, mode: .replace)
            return .completed
        }
        guard let stamp = journal.targetStamp, FileSystem.stamp(stamp, isOf: target) else { return .completed }
        try rewindWAL(target, to: walMark)
        return .discardedUnprovenCopy
    }

    /// Takes out of the target's `-wal` what was committed after `walMark` (its size and first
    /// bytes, ``ExportOperation/walMark(of:)``, taken under the write lock just before the
    /// retire): cut to that size, or emptied when SQLite had started it over (its header changed:
    /// everything before was in the file then); its `-shm` goes, SQLite rebuilds it.
    private static func rewindWAL(_ target: String, to walMark: String) throws {
        let recorded = walMark.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let size = recorded.first.flatMap { Int64($0) } ?? 0
        let wal = target + "-wal"
        let unchanged = recorded.count == 2 && ExportOperation.walMark(of: target).hasSuffix(":" + recorded[1])
        guard let current = FileSystem.size(of: wal), current > size || (current > 0 && !unchanged) else { return }
        try FileSystem.truncate(wal, to: unchanged ? size : 0)
        try FileSystem.remove(target + "-shm")
    }

    /// `true` when the copy at `temporary` is the very file the journal recorded as verified
    /// (its fingerprint, ``FileSystem/fingerprint(of:)``).
    private static func isVerifiedCopy(_ temporary: String, of journal: OperationJournal) -> Bool {
        guard let digest = journal.copyDigest else { return false }
        return (try? FileSystem.fingerprint(of: temporary)) == digest
    }
}
