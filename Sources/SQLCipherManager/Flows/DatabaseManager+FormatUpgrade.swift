import Foundation
import SQLCipherCore
import SQLCipherEngine
import SQLCipherQuery

// MARK: - Format upgrade

/// What ``DatabaseManager/upgradeFormat(progress:)`` did.
public enum FormatUpgradeResult: Sendable, Equatable {
    /// The file was rewritten from the first format into the second, the linked SQLCipher's.
    case upgraded(from: DatabaseFileFormat, to: DatabaseFileFormat)
    /// The file is already in the linked SQLCipher's format (or a newer one): nothing was written.
    case alreadyCurrent(DatabaseFileFormat)
}

extension DatabaseManager {
    /// Rewrites the open database from an older SQLCipher format (1, 2 or 3) into the linked
    /// SQLCipher's own, with its default settings — on SQLCipher 4: 4,096-byte pages,
    /// PBKDF2-HMAC-SHA512 with 256,000 iterations, HMAC-SHA512 — crash-safely.
    ///
    /// The rewrite is the export-and-install of ``rekey(to:options:progress:)``
    /// with new settings, not SQLCipher's `PRAGMA cipher_migrate` (which renames its copy over the
    /// file without flushing the folder, ignores other connections and leaves its own connection
    /// unusable after a failure): a copy `<db>.scm-upgrade` is written with `sqlcipher_export`
    /// from a connection that holds the file for itself, verified on a fresh connection
    /// (`integrity_check`, schema, row counts, `user_version`, `application_id`), flushed,
    /// journalled, and installed with one `rename`; a crash at any moment leaves the old file
    /// or the new one, which the next open or ``DatabaseTools/recoverInterruptedOperation(at:)``
    /// sorts out. Every row, `user_version`, the journal mode (WAL stays WAL), the file's
    /// permissions and the key are kept: the same password (derived once for the copy's new
    /// salt) or raw key opens it, and a key-slot database keeps its slots (the data key and the
    /// salt they are bound to are unchanged). The configuration's cipher options become the
    /// defaults, so this manager, its readers and its siblings open the new file.
    ///
    /// The new file can no longer be read by SQLCipher 3. While another program has the file
    /// open it is refused with ``DatabaseManagerError/openElsewhere(path:processID:processName:)``
    /// and nothing is written. A file already in the linked SQLCipher's format (always the case
    /// for a SQLCipher 3 file when SQLCipher 3 is linked) is ``FormatUpgradeResult/alreadyCurrent(_:)``:
    /// nothing is written and no event is sent.
    ///
    /// Events: `willUpgradeFormat`, then `didUpgradeFormat` or `didFailToUpgradeFormat` (after
    /// which the file is as it was, and open again).
    ///
    /// - Parameter progress: called on this thread with the fraction done, 0…1; it must not use
    ///   the manager.
    /// - Throws: before anything starts (no event): ``DatabaseManagerError/notOpen``,
    ///   ``DatabaseManagerError/transactionInProgress``, ``DatabaseManagerError/noCachedKey``.
    ///   After `willUpgradeFormat`: ``DatabaseManagerError/openElsewhere(path:processID:processName:)``,
    ///   ``DatabaseManagerError/busy(path:underlying:)``, ``DatabaseManagerError/insufficientDiskSpace(path:needed:available:)``,
    ///   ``DatabaseManagerError/permissionDenied(path:underlying:)``, ``DatabaseManagerError/operationInProgress(path:)``,
    ///   ``DatabaseManagerError/verificationFailed(path:reason:)``, I/O errors.
    @discardableResult
    public func upgradeFormat(progress: ((Double) -> Void)? = nil) throws -> FormatUpgradeResult {
        try announcing(failed: { .didFailToUpgradeFormat($0) }) { try upgradeFormatFlow(progress: progress) }
    }

    // MARK: - Flow

    func upgradeFormatFlow(progress: ((Double) -> Void)?) throws -> FormatUpgradeResult {
        let db = try requireDatabase()
        let format = try openFileFormat ?? DatabaseFileFormat(of: db)
        guard format.isUpgradeAvailable else { return .alreadyCurrent(format) }
        guard !db.isInTransaction else { throw DatabaseManagerError.transactionInProgress }
        guard let key = cachedKey else { throw DatabaseManagerError.noCachedKey }
        try announce(.willUpgradeFormat(format))
        let upgraded = DatabaseFileFormat.linkedDefaults(for: format)
        try replaceThroughExport(
            .upgrade, key: key, cipher: CipherOptions(), progress: progress, failed: { .didFailToUpgradeFormat($0) },
            siblingsHear: .didUpgradeFormat(from: format, to: upgraded))
        let found = try openFileFormat ?? DatabaseFileFormat(of: requireDatabase())
        notify(.didUpgradeFormat(from: format, to: found))
        return .upgraded(from: format, to: found)
    }

    /// After `didOpen`: when the open found the file in an older format by itself (not with
    /// settings the app named: those are the ones it wants), tells the delegate, and upgrades
    /// it when ``DatabaseConfiguration/upgradesFormatOnOpen`` asks. A failed upgrade leaves the
    /// database open in its old format (`didFailToUpgradeFormat` said why); it does not fail the open.
    func reportOlderFormat() throws {
        guard foundCipher != nil, let format = openFileFormat, format.isUpgradeAvailable else { return }
        notify(.didFindOlderFormat(format))
        guard configuration.upgradesFormatOnOpen else { return }
        do {
            _ = try upgradeFormatFlow(progress: nil)
        } catch {
            // Reported as `didFailToUpgradeFormat`; only a database left closed fails the open.
            if database == nil { throw error }
        }
    }
}

extension DatabaseFileFormat {
    /// The format a file gets from ``DatabaseManager/upgradeFormat(progress:)``: the linked
    /// SQLCipher's defaults (the sibling managers' event carries it before the file is read back).
    static func linkedDefaults(for format: DatabaseFileFormat) -> DatabaseFileFormat {
        guard let version = LinkedLibrary.cipherVersion else { return format }
        return DatabaseFileFormat(settings: CipherOptions().resolved(for: version), linked: version)
    }
}
