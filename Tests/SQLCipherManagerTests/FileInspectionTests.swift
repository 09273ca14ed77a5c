import Foundation
import Testing
@testable import SQLCipherManager

@Suite struct FileInspectionTests {
    @Test func inspectionTellsEachKindWithoutChangingAnything() throws {
        let dir = TemporaryDirectory()
        let plain = dir.file("plain.db")
        try Fixture.makePlaintextDatabase(at: plain, rows: 3, userVersion: 9)
        let encrypted = try Fixture.makeEncryptedDatabase(in: dir, name: "enc.db")
        let empty = dir.file("empty.db")
        try Data().write(to: empty)
        let folder = dir.file("folder.db")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let cases: [(URL, DatabaseFileInfo.Kind, String?)] = [
            (plain, .plaintextSQLite, "plaintextDatabase"),
            (encrypted, .encryptedOrNotADatabase, nil),
            (empty, .empty, "notADatabase"),
            (folder, .directory, "isDirectory"),
            (dir.file("missing.db"), .missing, "fileNotFound"),
            (dir.url.appendingPathComponent("nope/x.db"), .parentFolderMissing, "parentDirectoryMissing"),
        ]
        for (url, kind, problem) in cases {
            let before = Fixture.bytes(url)
            let info = DatabaseManager.inspectFile(at: url)
            #expect(info.kind == kind, "\(url.lastPathComponent)")
            #expect(info.problemBeforeUnlock?.caseName == problem, "\(url.lastPathComponent)")
            #expect(Fixture.bytes(url) == before)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("missing.db").path))
        let info = DatabaseManager.inspectFile(at: plain)
        #expect(info.plaintextUserVersion == 9)
        #expect(info.plaintextPageSize.map { $0 >= 512 } == true)
        #expect(info.plaintextPageCount.map { $0 >= 2 } == true)
        #expect(info.size == Int64(Fixture.bytes(plain).count))
        #expect(DatabaseManager.inspectFile(at: encrypted).plaintextUserVersion == nil)
    }

    @Test func aNamedPipeIsASpecialFileAndIsNotRead() throws {
        let dir = TemporaryDirectory()
        let pipe = dir.file("pipe.db")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let info = DatabaseManager.inspectFile(at: pipe)  // would block forever if it read the pipe
        #expect(info.kind == .specialFile)
        #expect(info.problemBeforeUnlock?.caseName == "notADatabase")
    }
}
