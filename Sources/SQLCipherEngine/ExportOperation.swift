import Foundation
import SQLCipherCore

// MARK: - ExportOperation

/// The crash-safe core shared by the changes that need a new file (cipher settings, encrypt,
/// decrypt): export the source into a temporary file beside the target, verify the copy on a
/// fresh connection and flush it, then install it with one `rename` (replace) or `link`
/// (create), each step recorded in an ``OperationJournal`` and made durable before the next,
/// so that a kill or a power loss at any moment leaves either the old file or the new one.
///
/// A replace runs only while nobody else has the file open (``ExclusiveAccess``): the export
/// reads it on the connection that holds its EXCLUSIVE lock, so no commit can land in the old
/// file after the copy was taken, and no connection is left on the old file after the rename.
package struct ExportOperation {
    /// The operations built on an export; the name goes into the temporary file's name and the journal.
    package enum Kind: String, Sendable {
        case rekey
        case encrypt
        case decrypt
        /// A copy of an open database into a new file (a create, like decrypt).
        case backup
        /// A file in an older SQLCipher format rewritten in the linked library's (a replace, like rekey).
        case upgrade
    }

    /// Opens the verified copy on a fresh connection, keyed (`key`) or plaintext (`nil`), with
    /// the settings the target will have; given by the layer that opens databases.
    package typealias CopyOpener = (_ path: String, _ key: SecretBytes?) throws -> Connection

    /// Names the temporary file and the journal entry.
    package let kind: Kind
    /// The file the operation replaces or creates.
    let target: String
    package let install: OperationJournal.Install
    /// The copy: the temporary path, its key (`nil` = plaintext) and cipher pragmas.
    let copy: ExportTarget
    /// How long a replace waits for readers to finish, in seconds (the busy timeout).
    let busyTimeout: TimeInterval
    /// How the copy is opened to verify it.
    let copyOpener: CopyOpener

    package init(
        _ kind: Kind, target: String, install: OperationJournal.Install, key: SecretBytes?,
        cipherPragmas: [String], busyTimeout: TimeInterval, copyOpener: @escaping CopyOpener
    ) {
        self.kind = kind
        // Through a symbolic link, the real file is the one replaced (the link stays a link),
        // and its journal, lock and copy sit beside it, where SQLite puts its own sidecars.
        self.target = FileSystem.resolvedPath(target)
        self.install = install
        self.busyTimeout = busyTimeout
        self.copyOpener = copyOpener
        let temporary = (DatabaseFile(path: self.target).directory as NSString)
            .appendingPathComponent(Self.temporaryName(for: self.target, operation: kind))
        copy = ExportTarget(path: temporary, key: key, cipherPragmas: cipherPragmas)
    }

    /// `<target file name>.scm-<operation>`, in the target's directory.
    package static func temporaryName(for target: String, operation: Kind) -> String {
        (target as NSString).lastPathComponent + ".scm-" + operation.rawValue
    }

    private var directory: String { DatabaseFile(path: target).directory }

    // MARK: - Running

    /// A create (decrypt, encrypt to a new path): checks, journals, exports `source` (which
    /// stays open; other connections may go on writing it) and verifies the copy, then links it
    /// at the target. Any failure before the link removes the copy and the journal.
    package func create(from source: Connection, progress: ((Double) -> Void)?) throws {
        try preflight(sourcePath: source.path)
        let (lock, reporter, journal) = try begin(progress)
        defer { lock.release() }
        var recorded = journal
        do {
            // An interrupt stops the export and verification (the copy goes); from the
            // journaled install on, the create finishes.
            recorded.copyDigest = try Interruption.undoable { try exportAndVerify(source: source, progress: reporter) }
            reporter(0.95)
            try Interruption.committed {
                try commitInstall(&recorded)
                try FileSystem.link(copy.path, to: target)
            }
        } catch {
            rollBack()
            throw error
        }
        // Linked: from here on a failure leaves the journal, and recovery finds the copy in place.
        try FileSystem.sync(directory)
        finish(reporter)
    }

    /// A replace (settings change, encrypt in place): `releaseSource` closes every connection
    /// of this process to the target, then `openSource` opens one of its own, which takes the
    /// file for itself (``ExclusiveAccess``, refusing while another process has it open),
    /// exports and verifies the copy, settles the old file's sidecars and installs the copy.
    /// Any failure before the rename removes the copy and the journal; the target stays as it was.
    package func replace(releaseSource: () -> Void, openSource: () throws -> Connection, progress: ((Double) -> Void)?) throws {
        try preflight(sourcePath: target)
        let (lock, reporter, journal) = try begin(progress)
        defer { lock.release() }
        var recorded = journal
        releaseSource()
        var access: ExclusiveAccess?
        defer { access?.close() }
        do {
            // An interrupt stops everything up to the settled sidecars (the old file is whole,
            // the copy goes); from the journaled install on, the replace finishes.
            let held = try Interruption.undoable { () throws -> ExclusiveAccess in
                let held = try ExclusiveAccess.take(try openSource(), target: target, timeout: busyTimeout)
                access = held
                recorded.copyDigest = try exportAndVerify(source: held.connection, progress: reporter)
                reporter(0.95)
                try held.settle()
                return held
            }
            FaultPause.at("checked")
            try Interruption.committed {
                recorded.targetStamp = FileSystem.stamp(of: target)
                try commitInstall(&recorded)
                FaultPause.at("journaled")
                try held.install(copy.path)
            }
        } catch let error as ExclusiveAccess.LeftForRecovery {
            throw error.underlying
        } catch {
            rollBack()
            throw error
        }
        finish(reporter)
    }

    /// Takes the operation lock and journals phase `export`.
    private func begin(_ progress: ((Double) -> Void)?) throws -> (OperationLock, ProgressReporter, OperationJournal) {
        guard let lock = try OperationLock.acquire(for: target) else {
            throw EngineFailure.operationInProgress(path: target)
        }
        let reporter = ProgressReporter(progress)
        reporter(0)
        let journal = OperationJournal(
            operation: kind, install: install, phase: .export, temporaryName: (copy.path as NSString).lastPathComponent)
        do {
            try journal.write(for: target)
        } catch {
            lock.release()
            throw error
        }
        return (lock, reporter, journal)
    }

    /// Journals phase `install` (the copy verified and on disk, its fingerprint recorded),
    /// durably, before the first step that puts it at the target.
    private func commitInstall(_ journal: inout OperationJournal) throws {
        journal.phase = .install
        try journal.write(for: target)
    }

    /// Removes the copy's temporary name, durably, then the journal: a power loss never
    /// leaves the temporary name (a plaintext copy, say) without the journal that removes it.
    private func finish(_ reporter: ProgressReporter) {
        rollBack()
        reporter(1)
    }

    /// Writes the copy, verifies it on a fresh connection while flushing it, and returns its fingerprint (``FileSystem/fingerprint(of:)``),
    /// which the journal records so that recovery installs only this very file.
    private func exportAndVerify(source: Connection, progress: ProgressReporter) throws -> String {
        try FileSystem.removeDatabaseFiles(copy.path)
        // ATTACH opens with the main connection's flags, which may lack SQLITE_OPEN_CREATE:
        // an empty file is an empty database to SQLite.
        try FileSystem.createEmptyFile(copy.path)
        // The copy is as private as the source; a plaintext copy or a backup (which travels) is
        // readable by its owner only.
        let ownerOnly = copy.key == nil || kind == .backup
        try FileSystem.copyAccess(from: source.path, to: copy.path, mask: ownerOnly ? 0o700 : 0o7777)
        let result: ExportResult
        do {
            result = try source.export(to: copy, progress: progress)
        } catch let error as SQLiteError where error.code == .busy || error.code == .locked {
            // The copy is this operation's own: a lock SQLite waited for is on the source.
            throw EngineFailure.busy(path: source.path, underlying: error)
        }
        // SQLite did not flush the copy (it is scratch until installed): it reaches the disk
        // while it is verified, and must be there before it is fingerprinted and journalled
        // for the install. Every path out waits for the flush.
        let flush = try FileSystem.BackgroundSync(copy.path)
        defer { try? flush.wait() }
        try verifyCopy(result)
        try flush.wait()
        // Whatever the verification wrote (the switch to WAL) is flushed too.
        try FileSystem.sync(copy.path)
        return try FileSystem.fingerprint(of: copy.path)
    }

    /// Refuses before anything is written: a directory or file that cannot be written, a target
    /// that exists (create), or less free space than twice the source (file, -wal and -journal).
    private func preflight(sourcePath: String) throws {
        switch (install, DatabaseFile(path: target).kind()) {
        case (.replace, _):
            guard FileSystem.isWritable(target) else { throw EngineFailure.permissionDenied(path: target) }
        case (.create, .missing): break
        case (.create, .parentDirectoryMissing): throw EngineFailure.parentDirectoryMissing(path: target)
        case (.create, _): throw EngineFailure.fileAlreadyExists(path: target)
        }
        guard FileSystem.isWritable(directory) else {
            throw EngineFailure.permissionDenied(path: directory)
        }
        // A link or another user's file planted at a name this will create is refused now,
        // before any work, and left alone (the copy's sidecars SQLite would write through).
        var names = ([""] + FileSystem.sidecarSuffixes).map { copy.path + $0 }
        if install == .replace { names.append(ExclusiveAccess.previousName(of: target)) }
        for name in names { try FileSystem.refuseUntrusted(name) }
        let needed = 2 * FileSystem.databaseSize(of: sourcePath)
        let available = try FileSystem.availableSpace(in: directory)
        guard available >= needed else {
            throw EngineFailure.insufficientDiskSpace(path: directory, needed: needed, available: available)
        }
    }

    /// Removes the copy and flushes the directory, then removes the journal.
    private func rollBack() {
        try? FileSystem.removeDatabaseFiles(copy.path, leavingForeign: true)
        try? FileSystem.sync(directory)
        try? OperationJournal.remove(for: target)
    }

    // MARK: - Verifying

    /// Opens the copy on a fresh connection with its own key and settings and checks
    /// `PRAGMA integrity_check`, the schema, every table's row count, `user_version` and
    /// `application_id`; puts it in WAL mode when the source was. The caller flushes it.
    private func verifyCopy(_ result: ExportResult) throws {
        let connection = try openCopy()
        defer { connection.close() }
        // integrity_check reads every page; with them cached, the row counts decrypt nothing.
        try connection.executeScript("PRAGMA cache_size = \(Connection.scanCacheSize(forFileAt: copy.path))")
        var check: [String] = []
        try connection.forEachRow("PRAGMA integrity_check") { row in row.text(at: 0).map { check.append($0) } }
        guard check == ["ok"] else {
            throw EngineFailure.verificationFailed(
                path: target, reason: "integrity_check: " + check.prefix(3).joined(separator: "; "))
        }
        try cipherIntegrityCheck(connection)
        let found = try DatabaseFingerprint(connection)
        guard found == result.fingerprint else {
            throw EngineFailure.verificationFailed(path: target, reason: found.difference(from: result.fingerprint))
        }
        if result.sourceIsWAL { try connection.executeScript("PRAGMA journal_mode = WAL") }
    }

    /// `PRAGMA cipher_integrity_check` (every page's HMAC) where the linked SQLCipher has it
    /// (4.0 and later; 3.4.1 has not, and its `integrity_check` above decrypted every page) and
    /// the copy has a page HMAC to check (`cipher_use_hmac`; without one the pragma reports
    /// "HMAC is not enabled" and there is nothing more to check): no row when every page is intact.
    private func cipherIntegrityCheck(_ connection: Connection) throws {
        guard copy.key != nil, let text = try connection.text("PRAGMA cipher_version"),
            let version = SQLCipherVersion(parsing: text), version >= SQLCipherVersion(4, 0),
            try connection.int64("PRAGMA cipher_use_hmac") != 0
        else { return }
        var problems: [String] = []
        try connection.forEachRow("PRAGMA cipher_integrity_check") { row in row.text(at: 0).map { problems.append($0) } }
        guard problems.isEmpty else {
            throw EngineFailure.verificationFailed(
                path: target, reason: "cipher_integrity_check: " + problems.prefix(3).joined(separator: "; "))
        }
    }

    /// A fresh connection to the copy: keyed like the target will be, or plaintext. A copy that
    /// does not open is ``EngineFailure/copyRefused(path:underlying:)``, whatever refused it.
    private func openCopy() throws -> Connection {
        // A copy in the plaintext-header form starts with SQLite's header too; ciphertext follows.
        let isPlaintext = DatabaseFile(path: copy.path).isPlaintextSQLite && !HeaderSaltFile.hasPlaintextHeaderForm(copy.path)
        if copy.key == nil, !isPlaintext {
            throw EngineFailure.verificationFailed(path: target, reason: "the copy is not a plaintext SQLite file")
        }
        if copy.key != nil, isPlaintext {
            throw EngineFailure.copyRefused(path: target, underlying: EngineFailure.encryptionNotActive(path: target))
        }
        do {
            return try copyOpener(copy.path, copy.key)
        } catch {
            throw EngineFailure.copyRefused(path: target, underlying: error)
        }
    }
}
