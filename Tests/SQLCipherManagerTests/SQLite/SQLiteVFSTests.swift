import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Reading a database's header never drops this process's locks on it")
struct SQLiteVFSTests {
    /// Asks another process (Python, `fcntl(F_GETLK)`) whether some process holds a lock on
    /// SQLite's shared-lock bytes of `path` (offset 0x40000002, 510 bytes); prints its pid.
    private func lockHolder(_ path: String) throws -> String {
        let python = try Interop.require(Interop.python, "Python 3 (.venv)")
        let script = """
            import fcntl, os, struct, sys
            fd = os.open(sys.argv[1], os.O_RDWR)
            lock = struct.pack('hhqqi', fcntl.F_WRLCK, 0, 0x40000002, 510, 0)
            kind, _, _, _, pid = struct.unpack('hhqqi', fcntl.fcntl(fd, fcntl.F_GETLK, lock))
            print(pid if kind != fcntl.F_UNLCK else 'none')
            """
        return try runProcess(python, ["-c", script, path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a WAL connection's SHARED lock survives header reads and a sibling's open")
    func headerReadsKeepLocks() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, wal: true)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM tag") == 20)
        #expect(try lockHolder(dir.file().path) == "\(getpid())")

        #expect(DatabaseFile(path: dir.file().path).header(count: 100)?.count == 100)
        _ = DatabaseTools.inspectFile(at: dir.file())
        let sibling = dir.manager()
        try sibling.open(password: "old-secret")
        sibling.close()
        #expect(try lockHolder(dir.file().path) == "\(getpid())")
    }

    @Test("the VFS read gives the file's bytes, fewer for a short file, nil for no file")
    func prefixes() throws {
        let dir = TemporaryDirectory()
        try Data([1, 2, 3]).write(to: dir.file("three"))
        #expect(SQLiteVFS.prefix(of: dir.file("three").path, count: 16) == [1, 2, 3])
        #expect(SQLiteVFS.prefix(of: dir.file("three").path, count: 2) == [1, 2])
        #expect(SQLiteVFS.prefix(of: dir.file("none").path, count: 2) == nil)
        // A 1-byte file (a stray -journal, say): the VFS's own size call would say 0.
        try Data([0x2B]).write(to: dir.file("one"))
        #expect(SQLiteVFS.prefix(of: dir.file("one").path, count: 1) == [0x2B])
        try Data().write(to: dir.file("empty"))
        #expect(SQLiteVFS.prefix(of: dir.file("empty").path, count: 2) == [])
    }
}
