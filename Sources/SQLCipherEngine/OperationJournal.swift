import Foundation
import SQLCipherCore

// MARK: - OperationJournal

/// The small file `<database>.scm-journal` that records an export-based operation (settings
/// change, encrypt, decrypt) while it runs, so the next open can finish or roll it back after
/// a crash.
///
/// It holds no key and no data: only the operation's name, how the new file is installed,
/// the phase reached, the name of the temporary file (in the same directory) and, once the copy is
/// verified and on disk, its fingerprint and (a replace) the stamp of the old file just before
/// the install. Every write goes through ``FileSystem/replaceDurably(_:with:)`` (temporary file,
/// `fsync`, `rename`, `fsync` of the directory), so a reader sees the previous phase or the new one.
package struct OperationJournal: Equatable {
    /// How the verified temporary file becomes the target.
    package enum Install: String {
        /// `rename` over an existing target (settings change, encrypt in place).
        case replace
        /// `link` to a target that must not exist, then remove the temporary name (encrypt or
        /// decrypt to a new path).
        case create
    }

    /// How far the operation got.
    package enum Phase: String {
        /// The temporary file is being written or verified; the target is untouched. Recovery
        /// removes the temporary file.
        case export
        /// The copy is complete, verified and on disk; a replace has settled the old file's
        /// sidecars. The install may have happened or not: recovery looks at the files.
        case install
    }

    package static let suffix = ".scm-journal"

    /// The largest journal this code writes is a few hundred bytes; a larger file is not ours
    /// and is refused before a byte of it is read.
    static let sizeLimit = 16 << 10

    /// The operation (`rekey`, `encrypt`, `decrypt`), for diagnosis.
    package let operation: ExportOperation.Kind
    package let install: Install
    package var phase: Phase
    /// The temporary file's name, in the target's directory.
    package let temporaryName: String
    /// A replace, in phase `install`: the old file's stamp (``FileSystem/stamp(of:)``: identity,
    /// size, modification time) once its sidecars were settled, so recovery can tell whether
    /// anyone wrote to it after the crash.
    package var targetStamp: String?
    /// Phase `install`: the copy's fingerprint (``FileSystem/fingerprint(of:)``), by which
    /// recovery recognises the copy, at its temporary name or at the target.
    package var copyDigest: String?

    /// The journal's path for a target file.
    package static func path(for target: String) -> String { target + suffix }

    // MARK: - Encoding

    private static let signature = "sqlciphermanager-journal 1"

    var encoded: String {
        var lines = [
            Self.signature, "operation=\(operation.rawValue)", "install=\(install.rawValue)",
            "phase=\(phase.rawValue)", "temporary=\(temporaryName)",
        ]
        if let targetStamp { lines.append("target=\(targetStamp)") }
        if let copyDigest { lines.append("digest=\(copyDigest)") }
        return (lines + [""]).joined(separator: "\n")
    }

    /// Parses a journal; `nil` when the text is not one this code wrote.
    package init?(decoding text: String) {
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
    }

    package init(operation: ExportOperation.Kind, install: Install, phase: Phase, temporaryName: String, targetStamp: String? = nil) {
        self.operation = operation
        self.install = install
        self.phase = phase
        self.temporaryName = temporaryName
        self.targetStamp = targetStamp
    }

    // MARK: - Reading and writing

    /// The journal beside `target`, `nil` when there is none.
    ///
    /// - Throws: ``EngineFailure/recoveryFailed(path:reason:)`` when a file is there but
    ///   is not a journal this code wrote.
    package static func read(for target: String) throws -> OperationJournal? {
        let path = path(for: target)
        guard let data = try FileSystem.readCapped(path, limit: sizeLimit) else { return nil }
        guard let journal = OperationJournal(decoding: String(decoding: data, as: UTF8.self))
        else {
            throw EngineFailure.recoveryFailed(path: path, reason: "the journal file cannot be read or parsed")
        }
        return journal
    }

    /// Writes the journal durably beside `target`: temporary file, `fsync`, `rename`, `fsync` of the directory.
    package func write(for target: String) throws {
        try FileSystem.replaceDurably(Self.path(for: target), with: Data(encoded.utf8))
    }

    /// Removes the journal (and a half-written one) beside `target`, then flushes the directory.
    package static func remove(for target: String) throws {
        let path = path(for: target)
        try FileSystem.removeLeftover(path + ".tmp", leavingForeign: true)
        try FileSystem.remove(path)
        try FileSystem.sync(DatabaseFile(path: target).directory)
    }

    /// The temporary file's full path.
    package func temporaryPath(for target: String) -> String {
        (DatabaseFile(path: target).directory as NSString).appendingPathComponent(temporaryName)
    }
}
