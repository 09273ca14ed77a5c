import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherManager

/// A `-journal` that SQLite would never play back (its header never written) is removed by
/// ``DatabaseTools/removeInertJournal(at:)`` under SQLite's lock; a hot one is left, and SQLite
/// rolls it back at the next open. Both are the files a crash leaves: copies of the database
/// and its journal taken inside a real write transaction, before and after SQLite synced the
/// journal's header.
@Suite(.ownThread, .enabled(if: FileSystem.canListOpenFiles, "needs /proc to prove no process has the journal open"))
struct InertJournalTests {
    static let journalMagic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]
    struct Rollback: Error {}

    /// A database of 3 rows, then a transaction that adds rows: the files as they are inside it
    /// are copied, and it is rolled back. `spill`: enough rows for a one-page cache to spill, so
    /// SQLite syncs the journal's header and writes pages into the database.
    func crashState(_ dir: TemporaryDirectory, spill: Bool) throws -> (database: Data, journal: Data) {
        let url = dir.file()
        let manager = dir.manager()
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE t(x)")
        try manager.execute("INSERT INTO t VALUES (1), (2), (3)")
        var copies: (Data, Data)?
        #expect(throws: Rollback.self) {
            try manager.transactionSync { db in
                if spill { try db.execute("PRAGMA cache_size = 1") }
                try db.execute(
                    "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ?) INSERT INTO t SELECT randomblob(3000) FROM c",
                    spill ? 300 : 1)
                copies = (try Data(contentsOf: url), try Data(contentsOf: URL(fileURLWithPath: url.path + "-journal")))
                throw Rollback()
            }
        }
        manager.close()
        return try #require(copies)
    }

    func install(_ state: (database: Data, journal: Data), in dir: TemporaryDirectory) throws {
        try state.database.write(to: dir.file())
        try state.journal.write(to: URL(fileURLWithPath: dir.file().path + "-journal"))
    }

    func rowCount(_ dir: TemporaryDirectory) throws -> Int? {
        let manager = dir.manager()
        try manager.open(password: "secret")
        defer { manager.close() }
        #expect(try manager.integrityProblems().isEmpty)
        return try manager.scalar(Int.self, "SELECT count(*) FROM t")
    }

    @Test func aJournalWhoseHeaderWasNeverWrittenIsRemoved() throws {
        let dir = TemporaryDirectory()
        let state = try crashState(dir, spill: false)
        try #require(state.journal.count > 512 && state.journal.prefix(12).allSatisfy { $0 == 0 }, "SQLite's unsynced header")
        try install(state, in: dir)
        let journal = dir.file().path + "-journal"
        #expect(DatabaseTools.removeInertJournal(at: dir.file()))
        #expect(!FileManager.default.fileExists(atPath: journal))
        #expect(try rowCount(dir) == 3)
        #expect(!DatabaseTools.removeInertJournal(at: dir.file()), "nothing left to remove")
    }

    /// The recovery every tool runs after a crash removes it too.
    @Test func recoveryRemovesAnInertJournal() throws {
        let dir = TemporaryDirectory()
        try install(try crashState(dir, spill: false), in: dir)
        #expect(try DatabaseTools.recoverInterruptedOperation(at: dir.file()) == .nothingToRecover)
        #expect(!FileManager.default.fileExists(atPath: dir.file().path + "-journal"))
        #expect(try rowCount(dir) == 3)
    }

    /// While another connection holds SQLite's RESERVED lock (a writer), nothing is removed.
    @Test func anInertJournalIsLeftWhileAWriterHoldsTheLock() throws {
        let dir = TemporaryDirectory()
        try install(try crashState(dir, spill: false), in: dir)
        let journal = dir.file().path + "-journal"
        let writer = try Connection(path: dir.file().path, mode: .readWrite)
        defer { writer.close() }
        try writer.lockMainFile(.shared)
        try writer.lockMainFile(.reserved)
        #expect(!DatabaseTools.removeInertJournal(at: dir.file()))
        #expect(FileManager.default.fileExists(atPath: journal))
        writer.unlockMainFile()
        #expect(DatabaseTools.removeInertJournal(at: dir.file()))
        #expect(!FileManager.default.fileExists(atPath: journal))
    }

    /// A journal whose header SQLite wrote (synced before it changed the database) is hot: it is
    /// left, and the next open rolls it back: the rows of the interrupted transaction are gone.
    @Test func aHotJournalIsLeftToSQLitesRollback() throws {
        let dir = TemporaryDirectory()
        let state = try crashState(dir, spill: true)
        try #require(Array(state.journal.prefix(8)) == Self.journalMagic, "a spilled transaction syncs the header")
        try install(state, in: dir)
        let journal = dir.file().path + "-journal"
        #expect(!DatabaseTools.removeInertJournal(at: dir.file()))
        #expect(FileManager.default.fileExists(atPath: journal))
        #expect(try rowCount(dir) == 3)
        #expect(!FileManager.default.fileExists(atPath: journal), "SQLite rolled it back and removed it")
    }
}
