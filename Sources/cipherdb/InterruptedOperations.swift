import Foundation
import SQLCipherManager

// MARK: - Interrupted operations

/// Before a command probes a file or asks for a password: finishes or rolls back a rekey,
/// encrypt or decrypt that was interrupted on the command's files (the database, and `--to`),
/// as the library's open does, and says what was done — so that no command reports a
/// half-encrypted file as plaintext or leaves `.scm-*` files behind.
enum InterruptedOperations {
    /// Recovers each of the invocation's files; one sentence per file where something was done.
    static func recover(_ invocation: Invocation) throws -> [String] {
        var notes: [String] = []
        for path in [invocation.path] + [Option.to].compactMap(invocation.value) where !path.isEmpty {
            SettingsRecord(databasePath: path).removeStaleTemporary()
            // Before the recovery, which would remove an inert journal without a word.
            let journal = journalNote(path: path)
            let pending = DatabaseTools.inspectFile(at: URL(fileURLWithPath: path)).pendingOperation
            let outcome = try DatabaseTools.recoverInterruptedOperation(at: URL(fileURLWithPath: path))
            if let note = note(outcome, kind: pending?.kind, path: path) { notes.append(note) }
            if let journal { notes.append(journal) }
        }
        return notes
    }

    /// Removes a `-journal` SQLite would never play back (the library's
    /// `DatabaseTools.removeInertJournal`), and says what was done with one that is there.
    private static func journalNote(path: String) -> String? {
        let journal = path + "-journal"
        guard FileManager.default.fileExists(atPath: journal) else { return nil }
        if DatabaseTools.removeInertJournal(at: URL(fileURLWithPath: path)) {
            return "removed \(journal), a rollback journal whose header SQLite never wrote: a write was interrupted "
                + "before it changed the database, so SQLite would never play it back; it was removed while holding "
                + "SQLite's write lock on \(path), and the database is as it was before that write."
        }
        let handle = FileHandle(forReadingAtPath: journal)
        defer { try? handle?.close() }
        guard let first = try? handle?.read(upToCount: 1)?.first, first != 0 else { return nil }
        return "\(journal) is hot (its header was written): it is left to SQLite, which rolls back the interrupted "
            + "write when the database is next opened (a write still running in another program keeps it)."
    }

    private static func note(_ outcome: RecoveryOutcome, kind: PendingOperation.Kind?, path: String) -> String? {
        let what = kind.map { $0 == .unknown ? "operation" : $0.rawValue } ?? "operation"
        switch outcome {
        case .nothingToRecover:
            return nil
        case .completed:
            let result =
                switch kind {
                case .rekey: "the file there is the copy that was verified with the new password and settings"
                case .encrypt: "the file there is the encrypted copy that was verified"
                case .decrypt: "the file there is the complete plaintext copy that was verified"
                case .upgrade: "the file there is the copy that was verified in the linked SQLCipher's format"
                default: "the file there is the verified copy"
                }
            return "finished the interrupted \(what) of \(path): \(result)."
        case .rolledBack:
            if kind == .decrypt || !FileManager.default.fileExists(atPath: path) {
                return "rolled back the interrupted \(what) of \(path): its copy was not complete; it was removed "
                    + "and nothing of it is at \(path)."
            }
            let original = kind == .encrypt ? "the original plaintext file" : "the original file, with its old password and settings,"
            return "rolled back the interrupted \(what) of \(path): \(original) is there, and the copy was removed."
        case .discardedUnprovenCopy:
            return "rolled back the interrupted \(what) of \(path): the copy beside it was not the one it had verified "
                + "and was removed unread; the file is as it was before."
        }
    }
}
