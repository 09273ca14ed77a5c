import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The copy an export writes is scratch until it is installed: SQLite keeps its
/// rollback journal in memory and does not flush it at the commit; the engine flushes it once,
/// while it verifies it. A kill while the copy is being written leaves no `-journal` beside it,
/// and recovery gives back the old file untouched.
@Suite("The export's scratch copy", .serialized, .ownThread)
struct ExportScratchCopyTests {
    typealias Flow = FaultInjectionTests.Flow

    @Test(
        "a kill while the copy is written: no -journal beside it, and recovery gives back the old file",
        arguments: [Flow.encryptInPlace, .rekeyExport, .decrypt])
    func killWhileTheCopyIsWritten(_ flow: Flow) throws {
        let dir = TemporaryDirectory()
        try FaultInjection.install(flow.template, in: dir)
        let source = FileSystem.size(of: dir.file().path) ?? 0
        let target = flow.target(in: dir).path
        let copy = dir.file(ExportOperation.temporaryName(for: target, operation: Self.kind(flow))).path
        let run = try FaultInjection.run(flow.rawValue, in: dir.url, kill: .afterFileReaches(path: copy, bytes: 1))

        #expect(run.killed, "the helper finished before the kill: \(run.errorOutput)")
        #expect(try OperationJournal.read(for: target)?.phase == .export)
        // Killed part way through: the copy is there but shorter than the file it copies.
        let written = FileSystem.size(of: copy) ?? 0
        #expect(written > 0 && written < source, "copy of \(written) bytes, source \(source)")
        #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))

        try DatabaseTools.recoverInterruptedOperation(at: URL(fileURLWithPath: target))
        #expect(try Self.oldFileProblems(flow, in: dir) == [])
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.db").path))
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    static func kind(_ flow: Flow) -> ExportOperation.Kind {
        switch flow {
        case .rekey, .rekeyExport: .rekey
        case .decrypt: .decrypt
        case .encryptInPlace, .encryptToPath, .adopt: .encrypt
        }
    }

    /// What is wrong with `test.db` as it was before the flow: the old password (rekey,
    /// decrypt) or plaintext (encrypt), with every row.
    static func oldFileProblems(_ flow: Flow, in dir: TemporaryDirectory) throws -> [String] {
        guard flow.template == "plain.db" else {
            return try dir.withOpened(password: "old-secret") { try RichDatabase.verify($0, rows: FaultInjection.rows) }
        }
        guard DatabaseFile(path: dir.file().path).isPlaintextSQLite else { return ["test.db is not plaintext"] }
        let connection = try Connection(path: dir.file().path, mode: .readWrite)
        defer { connection.close() }
        return try RichDatabase.verify(Database(connection: connection), rows: FaultInjection.rows)
    }

    @Test("an encryption writes its copy without a -journal at any moment")
    func noJournalBesideTheCopy() throws {
        let dir = TemporaryDirectory()
        // The copy's page cache holds 256 pages (Connection+Export), so it reaches the disk while
        // it is written only when the file is several times that at the copy's page size:
        // 5,000 rows for 1024-byte pages (SQLCipher 3), 20,000 for 4096 (4.x).
        let rows = 5000 * CipherOptions().expectedPageSize / 1024
        try RichDatabase.makePlaintext(at: dir.file(), rows: rows)
        var reports: [Double] = []
        var journalsSeen: Set<String> = []
        try DatabaseTools.encryptPlaintextDatabase(
            at: dir.file(), password: "new-secret", configuration: Self.configuration,
            progress: { fraction in
                reports.append(fraction)
                let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? []
                // SQLite's rollback journal of any file; the operation's own journal is `.scm-journal`.
                journalsSeen.formUnion(names.filter { $0.hasSuffix("-journal") && !$0.hasSuffix(OperationJournal.suffix) })
            })
        // Progress was heard while the copy was being written, so the directory was looked at then.
        #expect(reports.contains { $0 > 0 && $0 < 0.9 })
        #expect(journalsSeen == [])
        #expect(dir.openResult(password: "new-secret") == "none")
    }

    static let configuration = DatabaseConfiguration(cipher: .fast())
}
