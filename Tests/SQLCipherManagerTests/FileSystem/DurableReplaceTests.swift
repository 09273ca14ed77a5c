import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// ``FileSystem/replaceDurably(_:with:)``: the one way the library and cipherdb write a small
/// file beside a database.
@Suite struct DurableReplaceTests {
    @Test func aLeftoverTemporaryOfAKillIsReplacedAndNothingIsLeft() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("record").path
        try Data("old\n".utf8).write(to: dir.file("record.tmp"))
        try DatabaseTools.writeFileDurably(Data("new\n".utf8), to: dir.file("record"))
        #expect(FileManager.default.contents(atPath: path) == Data("new\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    /// A symbolic link planted at the temporary name is refused, typed, and left as it is;
    /// the file it points to and the record are untouched.
    @Test func aSymbolicLinkAtTheTemporaryNameIsRefusedAndLeftAlone() throws {
        let dir = TemporaryDirectory()
        let victim = dir.file("victim")
        try Data("keep\n".utf8).write(to: victim)
        try Data("old\n".utf8).write(to: dir.file("record"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("record.tmp").path, withDestinationPath: victim.path)
        #expect(
            Self.isRefusal(path: dir.file("record.tmp").path) {
                try DatabaseTools.writeFileDurably(Data("new\n".utf8), to: dir.file("record"))
            })
        #expect(FileManager.default.contents(atPath: victim.path) == Data("keep\n".utf8))
        #expect(FileManager.default.contents(atPath: dir.file("record").path) == Data("old\n".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("record.tmp").path) == victim.path)
    }

    /// A dangling link (to a file that does not exist yet) is not a way to create one either.
    @Test func aDanglingLinkAtTheTemporaryNameCreatesNothing() throws {
        let dir = TemporaryDirectory()
        let target = dir.file("created-by-link")
        try FileManager.default.createSymbolicLink(atPath: dir.file("record.tmp").path, withDestinationPath: target.path)
        #expect(
            Self.isRefusal(path: dir.file("record.tmp").path) {
                try DatabaseTools.writeFileDurably(Data("new\n".utf8), to: dir.file("record"))
            })
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(!FileManager.default.fileExists(atPath: dir.file("record").path))
    }

    /// The record's own name as a symbolic link: it is not replaced by our file either (the
    /// link and what it points to stay).
    @Test func aSymbolicLinkAtTheFileNameIsRefusedAndLeftAlone() throws {
        let dir = TemporaryDirectory()
        let victim = dir.file("victim")
        try Data("keep\n".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(atPath: dir.file("record").path, withDestinationPath: victim.path)
        #expect(
            Self.isRefusal(path: dir.file("record").path) {
                try DatabaseTools.writeFileDurably(Data("new\n".utf8), to: dir.file("record"))
            })
        #expect(FileManager.default.contents(atPath: victim.path) == Data("keep\n".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("record").path) == victim.path)
        #expect(!FileManager.default.fileExists(atPath: dir.file("record.tmp").path))
    }

    /// Another user's mode-0666 file at the temporary name never becomes the record.
    @Test func anotherUsersFileAtTheTemporaryNameIsRefusedAndLeftAlone() throws {
        guard getuid() == 0 else { return }  // only root can give a file away
        let dir = TemporaryDirectory()
        let planted = dir.file("record.tmp").path
        try Data("planted\n".utf8).write(to: dir.file("record.tmp"))
        #expect(chown(planted, 12345, 12345) == 0)
        #expect(chmod(planted, 0o666) == 0)
        #expect(
            Self.isRefusal(path: planted) {
                try DatabaseTools.writeFileDurably(Data("new\n".utf8), to: dir.file("record"))
            })
        #expect(FileManager.default.contents(atPath: planted) == Data("planted\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: dir.file("record").path))
    }

    /// A stale temporary of our own is removed without following anything; a link is not.
    @Test func removingALeftoverNeverRemovesWhatALinkPointsTo() throws {
        let dir = TemporaryDirectory()
        try Data("keep\n".utf8).write(to: dir.file("victim"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("record.tmp").path, withDestinationPath: dir.file("victim").path)
        #expect(
            Self.isRefusal(path: dir.file("record.tmp").path) {
                try DatabaseTools.removeLeftoverTemporary(of: dir.file("record"))
            })
        #expect(FileManager.default.contents(atPath: dir.file("victim").path) == Data("keep\n".utf8))
        try FileManager.default.removeItem(at: dir.file("record.tmp"))
        try Data("stale\n".utf8).write(to: dir.file("record.tmp"))
        try DatabaseTools.removeLeftoverTemporary(of: dir.file("record"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("record.tmp").path))
    }

    /// A sparse 2 GB file costs nothing to plant; its size is checked before any byte is read.
    @Test func aHugeSparseFileIsRefusedBeforeItIsRead() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("record").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 2 << 30) == 0)
        #expect(Self.isRefusal(path: path) { _ = try DatabaseTools.readSmallFile(at: dir.file("record"), limit: 4096) })
        #expect(FileSystem.size(of: path) == 2 << 30)
        try Data("small\n".utf8).write(to: dir.file("small"))
        #expect(try DatabaseTools.readSmallFile(at: dir.file("small"), limit: 4096) == Data("small\n".utf8))
        #expect(try DatabaseTools.readSmallFile(at: dir.file("absent"), limit: 4096) == nil)
    }

    /// A FIFO would block a plain read for ever; a directory is not a record.
    @Test func aFIFOOrADirectoryIsRefusedWithoutBlocking() throws {
        let dir = TemporaryDirectory()
        #expect(mkfifo(dir.file("fifo").path, 0o600) == 0)
        #expect(Self.isRefusal(path: dir.file("fifo").path) { _ = try DatabaseTools.readSmallFile(at: dir.file("fifo"), limit: 4096) })
        try FileManager.default.createDirectory(at: dir.file("directory"), withIntermediateDirectories: false)
        #expect(
            Self.isRefusal(path: dir.file("directory").path) {
                try DatabaseTools.writeFileDurably(Data("new\n".utf8), to: dir.file("directory"))
            })
    }

    static func isRefusal(path: String, _ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch let error as DatabaseManagerError where error.code == .untrustedFile {
            return error.path == path
        } catch {
            Issue.record("expected a refusal of \(path), got \(error)")
            return false
        }
    }

    @Test func anUnwritableDirectoryIsATypedErrorAndTheFileStays() throws {
        guard getuid() != 0 else { return }
        let dir = TemporaryDirectory()
        try Data("old\n".utf8).write(to: dir.file("record"))
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: dir.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir.url.path) }
        #expect {
            try DatabaseTools.writeFileDurably(Data("new\n".utf8), to: dir.file("record"))
        } throws: { error in
            if case .permissionDenied? = (error as? DatabaseManagerError)?.kind { return true }
            return false
        }
        #expect(FileManager.default.contents(atPath: dir.file("record").path) == Data("old\n".utf8))
    }
}
