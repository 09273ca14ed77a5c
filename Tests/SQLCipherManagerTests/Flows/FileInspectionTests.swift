import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite struct FileInspectionTests {
    @Test func inspectionTellsEachKindWithoutChangingAnything() throws {
        let dir = TemporaryDirectory()
        let plain = dir.file("plain.db")
        try Fixture.makePlaintextDatabase(at: plain, rows: 3, userVersion: 9)
        let encrypted = try Fixture.makeEncryptedDatabase(in: dir, name: "enc.db")
        let empty = dir.file("empty.db")
        try Data().write(to: empty)
        let directory = dir.file("directory.db")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let cases: [(URL, DatabaseFileInfo.Kind, String?)] = [
            (plain, .plaintextSQLite, "plaintextDatabase"),
            (encrypted, .encryptedOrNotADatabase, nil),
            (empty, .empty, "notADatabase"),
            (directory, .directory, "isDirectory"),
            (dir.file("missing.db"), .missing, "fileNotFound"),
            (dir.url.appendingPathComponent("nope/x.db"), .parentDirectoryMissing, "parentDirectoryMissing"),
        ]
        for (url, kind, problem) in cases {
            let before = Fixture.bytes(url)
            let info = DatabaseTools.inspectFile(at: url)
            #expect(info.kind == kind, "\(url.lastPathComponent)")
            #expect(info.problemBeforeUnlock?.caseName == problem, "\(url.lastPathComponent)")
            #expect(Fixture.bytes(url) == before)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("missing.db").path))
        let info = DatabaseTools.inspectFile(at: plain)
        #expect(info.plaintextUserVersion == 9)
        #expect(info.plaintextPageSize.map { $0 >= 512 } == true)
        #expect(info.plaintextPageCount.map { $0 >= 2 } == true)
        #expect(info.size == Int64(Fixture.bytes(plain).count))
        #expect(DatabaseTools.inspectFile(at: encrypted).plaintextUserVersion == nil)
    }

    @Test func aNamedPipeIsASpecialFileAndIsNotRead() throws {
        let dir = TemporaryDirectory()
        let pipe = dir.file("pipe.db")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let info = DatabaseTools.inspectFile(at: pipe)  // would block forever if it read the pipe
        #expect(info.kind == .specialFile)
        #expect(info.problemBeforeUnlock?.caseName == "notADatabase")
    }

    @Test func aRelativeFileURLIsInspectedAndReportedAsGiven() throws {
        let dir = TemporaryDirectory()
        let plain = dir.file("plain.db")
        try Fixture.makePlaintextDatabase(at: plain)
        // The temporary file's path relative to the current directory, as cipherdb gets it from argv.
        let cwd = FileManager.default.currentDirectoryPath.split(separator: "/")
        let relative = String(repeating: "../", count: cwd.count) + plain.path.dropFirst()
        let info = DatabaseTools.inspectFile(at: URL(fileURLWithPath: relative))
        #expect(info.kind == .plaintextSQLite)
        #expect(info.path == relative)
        #expect(info.problemBeforeUnlock?.description.contains(relative) == true)
        // Relative to another base than the current directory: inspected and reported absolute.
        let based = DatabaseTools.inspectFile(at: URL(fileURLWithPath: "plain.db", relativeTo: dir.url))
        #expect(based.kind == .plaintextSQLite)
        #expect(based.path == plain.path)
    }
}

@Suite("inspectFile: pending operations")
struct PendingOperationInspectionTests {
    @Test("an interrupted rekey is reported with its phase; a running one as running; nothing on disk changes")
    func pendingOperationIsReported() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        #expect(DatabaseTools.inspectFile(at: dir.file()).pendingOperation == nil)
        let name = ExportOperation.temporaryName(for: dir.file().path, operation: .rekey)
        try OperationJournal(operation: .rekey, install: .replace, phase: .install, temporaryName: name).write(for: dir.file().path)
        let snapshot = FileSnapshot(dir.url)

        let pending = try #require(DatabaseTools.inspectFile(at: dir.file()).pendingOperation)
        #expect(pending.kind == .rekey && pending.phase == .verified && !pending.isRunning)
        #expect(FileSnapshot(dir.url) == snapshot)
        try OperationJournal(operation: .rekey, install: .replace, phase: .export, temporaryName: name).write(for: dir.file().path)
        #expect(DatabaseTools.inspectFile(at: dir.file()).pendingOperation?.phase == .copying)

        let lock = try #require(try OperationLock.acquire(for: dir.file().path))
        defer { lock.release() }
        #expect(DatabaseTools.inspectFile(at: dir.file()).pendingOperation?.isRunning == true)
        try Data("not a journal".utf8).write(to: dir.file("test.db.scm-journal"))
        #expect(DatabaseTools.inspectFile(at: dir.file()).pendingOperation?.phase == .unreadable)
    }

    @Test("through a symbolic link, the operation beside the real file is the one reported")
    func pendingOperationThroughALink() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.db").path, withDestinationPath: "test.db")
        let name = ExportOperation.temporaryName(for: dir.file().path, operation: .encrypt)
        try OperationJournal(operation: .encrypt, install: .replace, phase: .export, temporaryName: name).write(for: dir.file().path)
        let pending = try #require(DatabaseTools.inspectFile(at: dir.file("link.db")).pendingOperation)
        #expect(pending.kind == .encrypt && pending.phase == .copying)
        #expect(DatabaseTools.inspectFile(at: dir.file("link.db")).size == Int64(Fixture.bytes(dir.file()).count))
    }
}
