import Foundation

// MARK: - ExportOperation

/// The crash-safe core shared by rekey, encrypt and decrypt: export the source into a
/// temporary file beside the target, verify the copy on a fresh connection, then install it
/// with one atomic `rename` (replace) or `link` (create), recorded step by step in an
/// ``OperationJournal`` so that a kill at any moment leaves either the old file or the new one.
struct ExportOperation {
    /// The operations built on an export; the name goes into the temporary file's name and the journal.
    enum Kind: String, Sendable {
        case rekey
        case encrypt
        case decrypt
    }

    /// Opens the verified copy on a fresh connection, keyed (`key`) or plaintext (`nil`), with
    /// the settings the target will have; given by the layer that opens databases.
    typealias CopyOpener = (_ path: String, _ key: SecretBytes?) throws -> Connection

    /// Names the temporary file and the journal entry.
    let kind: Kind
    /// The file the operation replaces or creates.
    let target: String
    let install: OperationJournal.Install
    /// The copy: the temporary path, its key (`nil` = plaintext) and cipher pragmas.
    let copy: ExportTarget
    /// How long a replace waits for readers to finish, in seconds (the busy timeout).
    let busyTimeout: TimeInterval
    /// How the copy is opened to verify it.
    let copyOpener: CopyOpener

    init(
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

    /// `<target file name>.scm-<operation>`, in the target's folder.
    static func temporaryName(for target: String, operation: Kind) -> String {
        (target as NSString).lastPathComponent + ".scm-" + operation.rawValue
    }

    private var directory: String { DatabaseFile(path: target).directory }

    // MARK: - Running

    /// Checks, journals, takes the source's write lock (replace: on a connection from
    /// `lockConnection`, see ``SourceWriteLock``), exports, verifies, calls `releaseSource`
    /// (which must close every other connection of this process to a file being replaced),
    /// then installs the copy: a replace shuts out readers, retires the old file and renames the
    /// copy over it (``replace(under:journal:)``). Any failure before the install
    /// removes the copy and the journal and leaves the target as it was.
    func run(
        source: Connection, lockConnection: (() throws -> Connection)?, releaseSource: () -> Void,
        progress: ((Double) -> Void)?
    ) throws {
        try preflight(sourcePath: source.path)
        guard let lock = try OperationLock.acquire(for: target) else {
            throw DatabaseManagerError.operationInProgress(path: target)
        }
        defer { lock.release() }
        let reporter = ProgressReporter(progress)
        reporter(0)
        var journal = OperationJournal(
            operation: kind, install: install, phase: .export, temporaryName: (copy.path as NSString).lastPathComponent)
        try journal.write(for: target)
        var writeLock: SourceWriteLock?
        defer { writeLock?.close() }
        do {
            if install == .replace, let lockConnection { writeLock = try SourceWriteLock(connection: lockConnection()) }
            journal.copyDigest = try exportAndVerify(source: source, progress: reporter)
            reporter(0.95)
            releaseSource()
        } catch {
            rollBack()
            throw error
        }
        if let writeLock {
            try replace(under: writeLock, journal: &journal)
        } else {
            try installJournaled(&journal)
        }
        try? FileSystem.removeDatabaseFiles(copy.path)
        try? OperationJournal.remove(for: target)
        reporter(1)
    }

    /// A replace, once the copy is verified and every other connection of this process closed:
    /// shuts out readers and checks (``prepareReplacement(under:)``), journals the retire (phase
    /// `retire`, with the bytes it overwrites), retires the old file (``SourceWriteLock``: its
    /// header, and in WAL mode its schema) and renames the copy over it. If the rename fails, the
    /// old file is un-retired and stays the database; only if that fails too does the journal
    /// stay, and the next open installs the verified copy.
    private func replace(under writeLock: SourceWriteLock, journal: inout OperationJournal) throws {
        let header: [UInt8]
        do {
            try prepareReplacement(under: writeLock)
            FaultPause.at("checked")
            header = try writeLock.originalHeader()
            journal.phase = .retire
            journal.targetStamp = FileSystem.stamp(of: target)
            journal.retiredHeader = header
            if writeLock.isWAL { journal.walMark = Self.walMark(of: target) }
            try journal.write(for: target)
            FaultPause.at("journaled")
        } catch {
            rollBack()
            throw error
        }
        do {
            // The header write is the retire in both modes (recovery's keyless proof). In WAL
            // mode the schema entry then stops the connections that keep page 1 in their cache,
            // and the header goes over that entry's page 1 in the `-wal` too, so that a
            // checkpoint (another program's close) carries it into the file.
            try writeLock.markRetired()
            if writeLock.isWAL {
                try writeLock.tombstoneReplacedFile()
                FaultPause.at("tombstoned")
                try writeLock.markRetiredInWAL()
            }
            FaultPause.at("retired")
            try Self.installCopy(copy.path, at: target, mode: .replace)
        } catch {
            if writeLock.unretire(header: header) { rollBack() }
            throw error
        }
        // The copy is in place: from here on nothing undoes it.
        FaultPause.at("installed")
        if !writeLock.isWAL { try? writeLock.tombstoneReplacedFile() }
        writeLock.waitForOtherPrograms(timeout: busyTimeout)
    }

    /// The `-wal`'s size and first 32 bytes, `<size>:<hex>` (``OperationJournal/walMark``).
    static func walMark(of target: String) -> String {
        let wal = target + "-wal"
        let header = DatabaseFile(path: wal).header(count: 32) ?? []
        return "\(FileSystem.size(of: wal) ?? 0):" + header.map { String(format: "%02x", $0) }.joined()
    }

    /// A create (or a replace without a write lock): journals phase `install` and links or
    /// renames the copy into place.
    private func installJournaled(_ journal: inout OperationJournal) throws {
        do {
            journal.phase = .install
            if install == .replace { journal.targetStamp = FileSystem.stamp(of: target) }
            try journal.write(for: target)
            try Self.installCopy(copy.path, at: target, mode: install)
        } catch {
            rollBack()
            throw error
        }
    }

    /// Writes the copy, verifies it on a fresh connection while flushing it, and returns its fingerprint (``FileSystem/fingerprint(of:)``),
    /// which the journal records so that recovery installs only this very file.
    private func exportAndVerify(source: Connection, progress: ProgressReporter) throws -> String {
        try FileSystem.removeDatabaseFiles(copy.path)
        // ATTACH opens with the main connection's flags, which may lack SQLITE_OPEN_CREATE:
        // an empty file is an empty database to SQLite.
        try FileSystem.createEmptyFile(copy.path)
        // The copy is as private as the source; a plaintext copy is readable by its owner only.
        try FileSystem.copyAccess(from: source.path, to: copy.path, mask: copy.key == nil ? 0o700 : 0o7777)
        let result = try source.export(to: copy, progress: progress)
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

    /// Just before a replace, with every connection of this process but the lock's closed:
    /// waits for readers (rollback journal), refuses when another program has a WAL database
    /// open (replacing it would strand that program's next commits in the old `-wal`, and its
    /// close would delete the new file's `-wal` by name), and when a `-journal` holds data.
    private func prepareReplacement(under writeLock: SourceWriteLock) throws {
        do {
            try writeLock.shutOutReaders(timeout: busyTimeout)
        } catch let error as SQLiteError {
            throw DatabaseManagerError.busy(path: target, underlying: error)
        }
        if let pid = writeLock.otherProgramHavingWALOpen() {
            throw DatabaseManagerError.openElsewhere(path: target, processID: pid)
        }
        if !writeLock.isWAL, Self.hasLiveSidecar(target) { throw Self.busyError }
    }

    /// Refuses before anything is written: a folder or file that cannot be written, a target
    /// that exists (create), or less free space than twice the source (file, -wal and -journal).
    private func preflight(sourcePath: String) throws {
        switch (install, DatabaseFile(path: target).kind()) {
        case (.replace, _):
            guard FileSystem.isWritable(target) else { throw DatabaseManagerError.permissionDenied(path: target, underlying: nil) }
        case (.create, .missing): break
        case (.create, .parentFolderMissing): throw DatabaseManagerError.parentFolderMissing(path: target)
        case (.create, _): throw DatabaseManagerError.fileAlreadyExists(path: target)
        }
        guard FileSystem.isWritable(directory) else {
            throw DatabaseManagerError.permissionDenied(path: directory, underlying: nil)
        }
        let needed = 2 * FileSystem.databaseSize(of: sourcePath)
        let available = try FileSystem.availableSpace(in: directory)
        guard available >= needed else {
            throw DatabaseManagerError.insufficientDiskSpace(path: directory, needed: needed, available: available)
        }
    }

    /// Removes the copy, then the journal: the target was never touched.
    private func rollBack() {
        try? FileSystem.removeDatabaseFiles(copy.path)
        try? OperationJournal.remove(for: target)
    }

    // MARK: - Verifying

    /// Opens the copy on a fresh connection with its own key and settings and checks
    /// `PRAGMA integrity_check`, the schema, every table's row count, `user_version` and
    /// `application_id`; puts it in WAL mode when the source was. The caller flushes it.
    private func verifyCopy(_ result: ExportResult) throws {
        do {
            let connection = try openCopy()
            defer { connection.close() }
            // integrity_check reads every page; with them cached, the row counts decrypt nothing.
            try connection.executeScript("PRAGMA cache_size = \(Connection.scanCacheSize(forFileAt: copy.path))")
            var check: [String] = []
            try connection.forEachRow("PRAGMA integrity_check") { row in row.text(at: 0).map { check.append($0) } }
            guard check == ["ok"] else {
                throw DatabaseManagerError.verificationFailed(
                    path: target, reason: "integrity_check: " + check.prefix(3).joined(separator: "; "))
            }
            let found = try DatabaseFingerprint(connection)
            guard found == result.fingerprint else {
                throw DatabaseManagerError.verificationFailed(path: target, reason: found.difference(from: result.fingerprint))
            }
            if result.sourceIsWAL { try connection.executeScript("PRAGMA journal_mode = WAL") }
        } catch let error as DatabaseManagerError {
            if case .verificationFailed = error { throw error }
            throw DatabaseManagerError.verificationFailed(path: target, reason: error.description)
        }
    }

    /// A fresh connection to the copy: keyed like the target will be, or plaintext.
    private func openCopy() throws -> Connection {
        let isPlaintext = DatabaseFile(path: copy.path).isPlaintextSQLite
        if copy.key == nil, !isPlaintext {
            throw DatabaseManagerError.verificationFailed(path: target, reason: "the copy is not a plaintext SQLite file")
        }
        if copy.key != nil, isPlaintext { throw DatabaseManagerError.encryptionNotActive(path: target) }
        return try copyOpener(copy.path, copy.key)
    }

    // MARK: - Installing (also used by recovery)

    static let busyError = SQLiteError(
        extendedCode: .busy,
        message: "another connection still uses the database (its -wal or -journal file holds data)")

    /// `true` when the target has a `-wal` with data or a hot `-journal` (non-zero header): then
    /// another connection uses it, and replacing the file would lose or corrupt data.
    static func hasLiveSidecar(_ target: String) -> Bool {
        if let size = FileSystem.size(of: target + "-wal"), size > 0 { return true }
        guard let header = DatabaseFile(path: target + "-journal").header(count: 8) else { return false }
        return header.contains { $0 != 0 }
    }

    /// Replaces (`rename`) or creates (`link`, never overwriting) the target with the verified
    /// copy, after removing the target's stale `-wal`, `-shm` and `-journal`; flushes the folder.
    /// It throws only while the target is still the old one: nothing after the rename or link fails.
    static func installCopy(_ temporary: String, at target: String, mode: OperationJournal.Install) throws {
        switch mode {
        case .replace:
            for suffix in FileSystem.sidecarSuffixes { try FileSystem.remove(target + suffix) }
            try FileSystem.rename(temporary, to: target)
        case .create:
            try FileSystem.link(temporary, to: target)
            try? FileSystem.remove(temporary)
        }
        try? FileSystem.sync(DatabaseFile(path: target).directory)
    }
}
