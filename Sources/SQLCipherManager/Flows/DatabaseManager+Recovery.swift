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
    /// copy whose fingerprint is not the one recorded when it was verified).
    private static func resolve(_ journal: OperationJournal, target: String) throws -> RecoveryOutcome {
        let temporary = journal.temporaryPath(for: target)
        guard journal.phase == .install else { return .rolledBack }
        guard DatabaseFile(path: temporary).exists else { return .completed }
        guard let digest = journal.copyDigest, (try? FileSystem.fingerprint(of: temporary)) == digest else {
            return .discardedUnprovenCopy
        }
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
}
