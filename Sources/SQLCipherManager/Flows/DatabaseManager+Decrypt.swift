import Foundation
import SQLCipherCore

// MARK: - Decrypt

extension DatabaseManager {
    /// Writes a plaintext (unencrypted) copy of the open database to `destination`; the
    /// database itself is not modified and stays open.
    ///
    /// A new file is attached with `ATTACH DATABASE ? AS … KEY ?` bound to an empty key (SQLCipher's
    /// `KEY ''`: no encryption), `SELECT sqlcipher_export(…)` copies every table, index, view and
    /// trigger in one transaction, `user_version` and `application_id` are copied by hand, and
    /// the copy is checked on a fresh connection (`PRAGMA integrity_check`, schema, row counts)
    /// before it appears at `destination` (`link`, which never overwrites). A crash leaves
    /// either no destination or a complete one; the leftovers are removed by
    /// ``DatabaseTools/recoverInterruptedOperation(at:)`` on `destination`.
    ///
    /// The copy holds every row in clear text. It is created readable and writable by its owner
    /// only (the source's permission bits masked with `0700`); keep it somewhere private.
    ///
    /// - Parameters:
    ///   - destination: where the plaintext copy is written; nothing may exist there yet.
    ///   - progress: called on this thread with the fraction done, 0…1; it must not use the manager.
    /// - Throws: ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/transactionInProgress``,
    ///   ``DatabaseManagerError/fileAlreadyExists(path:)`` when `destination` exists,
    ///   ``DatabaseManagerError/parentDirectoryMissing(path:)``,
    ///   ``DatabaseManagerError/permissionDenied(path:underlying:)``,
    ///   ``DatabaseManagerError/insufficientDiskSpace(path:needed:available:)``,
    ///   ``DatabaseManagerError/verificationFailed(path:reason:)``.
    public func decrypt(to destination: URL, progress: ((Double) -> Void)? = nil) throws {
        try locked {
            let db = try requireDatabase()
            guard !db.isInTransaction else { throw DatabaseManagerError.transactionInProgress }
            let target = destination.path
            do {
                try InterruptedOperationRecovery.recover(atPath: target)
                var plaintext = configuration
                plaintext.cipher = CipherOptions()
                let operation = ExportOperation(
                    .decrypt, target: target, install: .create, key: nil, configuration: plaintext)
                try operation.create(from: db.connection, progress: progress)
            } catch {
                throw DatabaseManagerError(diagnosing: error, path: target)
            }
        }
    }
}
