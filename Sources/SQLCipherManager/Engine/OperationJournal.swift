import Foundation

// MARK: - OperationJournal

/// The small file `<database>.scm-journal` that records an export-based operation (rekey,
/// encrypt, decrypt) while it runs, so the next open can finish or roll it back after a crash.
///
/// It holds no key and no data: only the operation's name, how the new file is installed,
/// the phase reached, the name of the temporary file (in the same folder) and, once the copy is
/// verified, the target's stamp (device, inode, size, modification time), the copy's fingerprint
/// and, for a replace, the target's first bytes before they were overwritten to retire it. Every write goes
/// to `<journal>.tmp`, is flushed (`fsync`), renamed over the journal and the folder flushed,
/// so a reader sees either the previous phase or the new one, never half a file.
struct OperationJournal: Equatable {
    /// How the verified temporary file becomes the target.
    enum Install: String {
        /// `rename` over an existing target (rekey, encrypt in place).
        case replace
        /// `link` to a target that must not exist, then remove the temporary name (encrypt or
        /// decrypt to a new path).
        case create
    }

    /// How far the operation got.
    enum Phase: String {
        /// The temporary file is being written or verified; the target is untouched. Recovery
        /// rolls back: removes the temporary file.
        case export
        /// The temporary file is complete, flushed and verified. Recovery finishes: installs it
        /// (a create; a replace journaled by an earlier version, over the same unmodified target).
        case install
        /// A replace: the copy is complete, flushed and verified, and the old file at the path is
        /// being retired (its header overwritten, see ``SourceWriteLock/markRetired()``) before
        /// the copy is renamed over it. Recovery rolls forward when the file at the path carries
        /// the retired header (nobody can have written to it since: the copy has every committed
        /// row), and rolls back when it does not (the retire never happened; the file may have
        /// been written to since, and keeps those rows).
        case retire
    }

    static let suffix = ".scm-journal"

    /// The operation (`rekey`, `encrypt`, `decrypt`), for diagnosis.
    let operation: ExportOperation.Kind
    let install: Install
    var phase: Phase
    /// The temporary file's name, in the target's folder.
    let temporaryName: String
    /// In phase `install` of a replace: the target's identity, size and modification time when
    /// the copy was verified (``FileSystem/stamp(of:)``). Recovery installs the copy only over
    /// that same, unmodified file. In phase `retire`: the same, taken just before the header was
    /// overwritten (the overwrite changes the modification time, so recovery does not compare
    /// it; it restores the header only into the file with that device and inode).
    var targetStamp: String?
    /// In phase `retire` (both modes; a WAL journal of the first version has none, see
    /// recovery): the target's first bytes before ``SourceWriteLock/markRetired()`` overwrote
    /// them (the SQLite header, or SQLCipher's salt and the start of page 1: no key
    /// and no row), so that recovery can put them back when the copy cannot be installed.
    var retiredHeader: [UInt8]?
    /// In phase `retire` of a WAL database: the `-wal`'s size and first 32 bytes (hexadecimal)
    /// just before the schema entry that stops its connections was committed to it, as
    /// `<size>:<hex>`, so that recovery can take that commit out again (see ``SourceWriteLock``).
    var walMark: String?
    /// Once the copy is verified: the copy's fingerprint (``FileSystem/fingerprint(of:)``: identity, times, SHA-256 of its first and last pages). Recovery installs a copy
    /// only when its digest is this one, so a file put in the copy's place is never installed.
    var copyDigest: String?

    /// The journal's path for a target file.
    static func path(for target: String) -> String { target + suffix }

    // MARK: - Encoding

    private static let signature = "sqlciphermanager-journal 1"

    var encoded: String {
        var lines = [
            Self.signature, "operation=\(operation.rawValue)", "install=\(install.rawValue)",
            "phase=\(phase.rawValue)", "temporary=\(temporaryName)",
        ]
        if let targetStamp { lines.append("target=\(targetStamp)") }
        if let copyDigest { lines.append("digest=\(copyDigest)") }
        if let walMark { lines.append("wal=\(walMark)") }
        if let retiredHeader { lines.append("header=" + retiredHeader.map { String(format: "%02x", $0) }.joined()) }
        return (lines + [""]).joined(separator: "\n")
    }

    /// Parses a journal; `nil` when the text is not one this code wrote.
    init?(decoding text: String) {
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.first == Self.signature else { return nil }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let equals = line.firstIndex(of: "=") else { return nil }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let operation = fields["operation"].flatMap(ExportOperation.Kind.init),
            let install = fields["install"].flatMap(Install.init),
            let phase = fields["phase"].flatMap(Phase.init),
            let temporaryName = fields["temporary"],
            !temporaryName.isEmpty, !temporaryName.contains("/"), temporaryName != "..", temporaryName != "."
        else { return nil }
        self.init(operation: operation, install: install, phase: phase, temporaryName: temporaryName)
        targetStamp = fields["target"]
        copyDigest = fields["digest"]
        walMark = fields["wal"]
        if let hex = fields["header"] {
            guard let bytes = Self.bytes(hex: hex) else { return nil }
            retiredHeader = bytes
        }
    }

    /// The bytes a string of hexadecimal pairs spells, `nil` when it is not one.
    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    init(operation: ExportOperation.Kind, install: Install, phase: Phase, temporaryName: String, targetStamp: String? = nil) {
        self.operation = operation
        self.install = install
        self.phase = phase
        self.temporaryName = temporaryName
        self.targetStamp = targetStamp
    }

    // MARK: - Reading and writing

    /// The journal beside `target`, `nil` when there is none.
    ///
    /// - Throws: ``DatabaseManagerError/recoveryFailed(path:reason:)`` when a file is there but
    ///   is not a journal this code wrote.
    static func read(for target: String) throws -> OperationJournal? {
        let path = path(for: target)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
            let journal = OperationJournal(decoding: String(decoding: data, as: UTF8.self))
        else {
            throw DatabaseManagerError.recoveryFailed(path: path, reason: "the journal file cannot be read or parsed")
        }
        return journal
    }

    /// Writes the journal durably beside `target`: temporary file, `fsync`, `rename`, `fsync` of the folder.
    func write(for target: String) throws {
        try FileSystem.replaceDurably(Self.path(for: target), with: Data(encoded.utf8))
    }

    /// Removes the journal (and a half-written one) beside `target`, then flushes the folder.
    static func remove(for target: String) throws {
        let path = path(for: target)
        try FileSystem.remove(path + ".tmp")
        try FileSystem.remove(path)
        try FileSystem.sync(DatabaseFile(path: target).directory)
    }

    /// The temporary file's full path.
    func temporaryPath(for target: String) -> String {
        (DatabaseFile(path: target).directory as NSString).appendingPathComponent(temporaryName)
    }
}
