import Foundation
import SQLCipherCore
import SQLCipherEngine

/// Crash recovery: finishes or rolls back an export operation (rekey, encrypt, decrypt, backup)
/// that a crash interrupted, from its journal and the files beside the database. Every open
/// and every flow runs it first; ``DatabaseTools/recoverInterruptedOperation(at:)`` is the
/// public entry.
enum InterruptedOperationRecovery {
    /// Recovers what an interrupted operation left at `path`, under the operation lock.
    @discardableResult
    static func recover(atPath path: String) throws -> RecoveryOutcome {
        // The journal, copy and lock sit beside the real file, as SQLite's own sidecars do.
        let target = FileSystem.resolvedPath(path)
        FileSystem.ScratchDirectory.removeAbandoned(beside: target)
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
                try FileSystem.removeLeftover(journalPath + ".tmp", leavingForeign: true)
                return .nothingToRecover
            }
            guard journal.temporaryName == ExportOperation.temporaryName(for: target, operation: journal.operation) else {
                throw DatabaseManagerError.recoveryFailed(
                    path: OperationJournal.path(for: target), reason: "the journal names an unexpected temporary file")
            }
            let outcome = try resolve(journal, target: target)
            // The copy's name goes durably before the journal that names it.
            try FileSystem.removeDatabaseFiles(journal.temporaryPath(for: target))
            try FileSystem.sync(DatabaseFile(path: target).directory)
            try OperationJournal.remove(for: target)
            return outcome
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: path)
        }
    }

    /// Decides from the files, not from the phase alone: the journal's phase says only whether
    /// the copy was verified and on disk (`install`) or not (`export`: rolled back, the target
    /// was never touched). Then what is at the target decides (``FileSystem/fingerprint(of:)``'s
    /// identity of the copy): the copy (completed), the original (a replace rolls back: it has
    /// every committed row), or nothing (a create links the verified copy).
    private static func resolve(_ journal: OperationJournal, target: String) throws -> RecoveryOutcome {
        let temporary = journal.temporaryPath(for: target)
        let copyIsAtTarget = journal.copyDigest.map { digest in FileSystem.fingerprint(digest, isOf: target) } ?? false
        switch (journal.install, journal.phase) {
        case (.replace, _):
            let outcome = try resolveReplace(journal, target: target, copyIsAtTarget: copyIsAtTarget)
            let unproven = journal.phase == .install && DatabaseFile(path: temporary).exists && !isVerifiedCopy(temporary, of: journal)
            return outcome == .rolledBack && unproven ? .discardedUnprovenCopy : outcome
        case (.create, .export):
            return .rolledBack
        case (.create, .install):
            if copyIsAtTarget { return .completed }
            guard !DatabaseFile(path: target).exists else { return .rolledBack }
            guard isVerifiedCopy(temporary, of: journal) else {
                return DatabaseFile(path: temporary).exists ? .discardedUnprovenCopy : .rolledBack
            }
            try FileSystem.link(temporary, to: target)
            try FileSystem.sync(DatabaseFile(path: target).directory)
            return .completed
        }
    }

    /// A replace: the copy at the target is kept, unless the old file (under its second name,
    /// `<db>.scm-previous`, during the install) was opened or written by another program since:
    /// then that file is put back, as the install itself would have done. Anything else at the
    /// target is the original, which stays (its `-wal` was checkpointed into it before the
    /// install began); the copy goes.
    private static func resolveReplace(_ journal: OperationJournal, target: String, copyIsAtTarget: Bool) throws -> RecoveryOutcome {
        let previous = ExclusiveAccess.previousName(of: target)
        let directory = DatabaseFile(path: target).directory
        guard let kept = FileSystem.identity(of: previous) else {
            return copyIsAtTarget ? .completed : .rolledBack
        }
        let targetMissing = !DatabaseFile(path: target).exists
        let unwritten = journal.targetStamp.map { FileSystem.stamp($0, describesWritesOf: previous) } ?? false
        let previousWasUsed = !unwritten || !FileSystem.otherProcesses(withOpen: [kept]).isEmpty
        if targetMissing || (copyIsAtTarget && previousWasUsed) {
            try FileSystem.rename(previous, to: target)
            try FileSystem.sync(directory)
            return .rolledBack
        }
        // Not the copy: the second name goes only when it is the original's, at the target.
        if copyIsAtTarget || FileSystem.identity(of: target) == kept || FileSystem.sameContent(target, previous) {
            try FileSystem.remove(previous)
            try FileSystem.sync(directory)
        }
        return copyIsAtTarget ? .completed : .rolledBack
    }

    /// `true` when the copy at `temporary` is the very file the journal recorded as verified
    /// (its whole fingerprint, ``FileSystem/fingerprint(of:)``).
    private static func isVerifiedCopy(_ temporary: String, of journal: OperationJournal) -> Bool {
        guard let digest = journal.copyDigest else { return false }
        return (try? FileSystem.fingerprint(of: temporary)) == digest
    }
}
