import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherManager

/// A write to a database file that cannot be written is ``DatabaseManagerError/notWritable(path:reason:)``
/// with the cause the file system gives (not SQLite's "attempt to write a readonly database"),
/// and the file is left as it was.
@Suite(.ownThread) struct NotWritableTests {
    /// `chattr +i` works here: root (whom no mode bit stops) on a file system with the flag.
    static let canSetImmutable = ReadOnly.isRoot && ReadOnly.isSupported

    /// A closed database of one table, and its bytes.
    func database(_ dir: TemporaryDirectory) throws -> (DatabaseManager, Data) {
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        manager.close()
        return (manager, Fixture.bytes(dir.file()))
    }

    /// Opens the database and writes: the error, with the file's bytes unchanged.
    func writeError(_ manager: DatabaseManager, _ dir: TemporaryDirectory, before: Data) throws -> DatabaseManagerError? {
        try manager.open(password: "secret")
        defer { manager.close() }
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t") == 0, "reads still work")
        let error = thrownError { try manager.execute("INSERT INTO t VALUES (1)") } as? DatabaseManagerError
        #expect(Fixture.bytes(dir.file()) == before)
        if let error {
            #expect(!"\(error)".contains("Fix the SQL") && "\(error)".contains("cannot be written"), "\(error)")
        }
        return error
    }

    @Test(.enabled(if: canSetImmutable, "needs chattr +i: root, on a file system with the immutable flag"))
    func anImmutableFileSaysSo() throws {
        let dir = TemporaryDirectory()
        let (manager, before) = try database(dir)
        let path = dir.file().path
        try #require(runTool("chattr", ["+i", path]) == 0)
        defer { runTool("chattr", ["-i", path]) }
        #expect(FileSystem.writeRefusal(at: path) == .immutable(path: path))
        let error = try writeError(manager, dir, before: before)
        #expect(error == .notWritable(path: path, reason: .immutable(path: path)))
        #expect(error.map { "\($0)".contains("chattr -i") } == true)
    }

    @Test(.enabled(if: canSetImmutable, "needs chattr +i: root, on a file system with the immutable flag"))
    func anImmutableDirectorySaysSo() throws {
        let dir = TemporaryDirectory()
        let (manager, before) = try database(dir)
        let path = dir.file().path
        let directory = dir.url.path
        try #require(runTool("chattr", ["+i", directory]) == 0)
        defer { runTool("chattr", ["-i", directory]) }
        #expect(FileSystem.writeRefusal(at: path) == .immutable(path: directory))
        let error = try writeError(manager, dir, before: before)
        #expect(error == .notWritable(path: path, reason: .immutable(path: directory)))
    }

    @Test(.enabled(if: !ReadOnly.isRoot, "root writes a file whatever its mode: permissions stop only other users"))
    func aFileWithoutWritePermissionSaysSo() throws {
        let dir = TemporaryDirectory()
        let (manager, before) = try database(dir)
        let path = dir.file().path
        try #require(runTool("chmod", ["a-w", path]) == 0)
        defer { runTool("chmod", ["u+w", path]) }
        let error = try writeError(manager, dir, before: before)
        #expect(error == .notWritable(path: path, reason: .permissions(path: path)))
    }

    @Test(.enabled(if: SmallDisk.isSupported, "needs root and mount: a tmpfs remounted read-only"))
    func aReadOnlyFileSystemSaysSo() throws {
        let disk = try SmallDisk(kilobytes: 512)
        let url = disk.file("test.db")
        let manager = TemporaryDirectory.manager(at: url)
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE t(x)")
        manager.close()
        try #require(runTool("mount", ["-o", "remount,ro", disk.url.path]) == 0)
        defer { runTool("mount", ["-o", "remount,rw", disk.url.path]) }
        #expect(FileSystem.writeRefusal(at: url.path) == .readOnlyFileSystem(path: url.path))
        try manager.open(password: "secret")
        defer { manager.close() }
        let error = thrownError { try manager.execute("INSERT INTO t VALUES (1)") } as? DatabaseManagerError
        #expect(error == .notWritable(path: url.path, reason: .readOnlyFileSystem(path: url.path)))
    }
}
