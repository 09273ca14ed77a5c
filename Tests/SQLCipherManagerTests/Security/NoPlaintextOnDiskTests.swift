import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Marker rows written through the manager never reach the disk in clear text: not in the
/// database, its `-journal`, `-wal` or `-shm`, not in the temporary directories, not after a rekey
/// or an in-place encryption; and SQLite's temporary b-trees stay in memory (`temp_store`).
@Suite(.ownThread) struct NoPlaintextOnDiskTests {
    /// Text that must never be found in clear on disk.
    struct Canary {
        let marker = "PLAINTEXT-CANARY-\(UUID().uuidString)"
        let started = Date()

        /// Inserts `rows` rows of markers in one transaction (a savepoint inside another), and a
        /// table whose schema text is also a marker.
        func write(_ db: Database, rows: Int = 400) throws {
            try db.transaction { db in
                try db.execute("CREATE TABLE IF NOT EXISTS canary(id INTEGER PRIMARY KEY, note TEXT, padding BLOB)")
                for index in 0..<rows {
                    try db.execute("INSERT INTO canary(note, padding) VALUES (?, zeroblob(64))", "\(marker)-\(index)")
                }
            }
        }

        /// Every file in `directory` (and the temporary directories, for files written since the canary
        /// was made) whose bytes contain the marker, or the `CREATE TABLE canary` schema text.
        func leaks(in directory: URL) -> [String] {
            let needles = [Data(marker.utf8), Data("CREATE TABLE IF NOT EXISTS canary".utf8)]
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            var files = names.map { directory.appendingPathComponent($0) }
            files += Self.temporaryDirectories.flatMap { recentFiles(in: $0) }
            return files.filter { url in
                let bytes = Fixture.bytes(url)
                return needles.contains { bytes.range(of: $0) != nil }
            }.map(\.path)
        }

        /// Where SQLite and Foundation put temporary files.
        static let temporaryDirectories: [URL] = Set(
            [FileManager.default.temporaryDirectory.path, "/tmp", "/var/tmp", "/usr/tmp"]
                + [ProcessInfo.processInfo.environment["SQLITE_TMPDIR"]].compactMap { $0 }
        ).sorted().map { URL(fileURLWithPath: $0) }

        /// Regular files directly in `directory` (where SQLite puts its `etilqs_…` files) modified
        /// since the canary was made, smaller than 64 MB.
        private func recentFiles(in directory: URL) -> [URL] {
            let keys: [URLResourceKey] = [.isRegularFileKey, .contentModificationDateKey, .fileSizeKey]
            let urls = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
            return urls.filter { url in
                guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                    (values.fileSize ?? 0) < 64 << 20, let modified = values.contentModificationDate
                else { return false }
                return modified >= started.addingTimeInterval(-1)
            }
        }
    }

    // MARK: - Writes

    /// A new encrypted database ("secret").
    static func createDatabase(in dir: TemporaryDirectory) throws -> DatabaseManager {
        let manager = dir.manager()
        try manager.create(password: "secret")
        return manager
    }

    static func expectNoLeakBeforeAndAfterClosing(_ manager: DatabaseManager, _ canary: Canary, _ dir: TemporaryDirectory) throws {
        #expect(canary.leaks(in: dir.url) == [])
        manager.close()
        #expect(canary.leaks(in: dir.url) == [])
    }

    @Test func aWriteTransactionLeavesNoPlaintextInTheDatabaseOrItsJournal() throws {
        let dir = TemporaryDirectory()
        let canary = Canary()
        let manager = try Self.createDatabase(in: dir)
        try manager.withDatabase { try canary.write($0, rows: 50) }
        try manager.transactionSync { db in
            // A tiny page cache spills changed pages into the file before the commit.
            try db.execute("PRAGMA cache_size = 4")
            try canary.write(db)
            #expect(FileManager.default.fileExists(atPath: dir.file().path + "-journal"), "the journal must be there to be scanned")
            #expect(canary.leaks(in: dir.url) == [])
        }
        try Self.expectNoLeakBeforeAndAfterClosing(manager, canary, dir)
    }

    @Test func aWALDatabaseLeavesNoPlaintextInTheWALOrTheSharedMemoryFile() throws {
        let dir = TemporaryDirectory()
        let canary = Canary()
        let manager = try Self.createDatabase(in: dir)
        #expect(try manager.scalar(String.self, "PRAGMA journal_mode = WAL") == "wal")
        try manager.withDatabase { try canary.write($0) }
        #expect(FileManager.default.fileExists(atPath: dir.file().path + "-wal"), "the -wal must be there to be scanned")
        #expect((try? FileManager.default.attributesOfItem(atPath: dir.file().path + "-wal")[.size] as? Int) ?? 0 > 0)
        try Self.expectNoLeakBeforeAndAfterClosing(manager, canary, dir)
    }

    // MARK: - Rekey and encrypt

    @Test func aRekeyLeavesNoPlaintext() throws {
        let dir = TemporaryDirectory()
        let canary = Canary()
        let manager = try Self.createDatabase(in: dir)
        try manager.withDatabase { try canary.write($0) }
        var seenDuringTheRekey: [String] = []
        try manager.rekey(to: .password("new-secret"), options: .fast(kdfIterations: 5000)) { _ in
            seenDuringTheRekey += canary.leaks(in: dir.url)
        }
        #expect(seenDuringTheRekey == [])
        #expect(canary.leaks(in: dir.url) == [])
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM canary") == 400)
    }

    @Test func encryptingInPlaceLeavesNoPlaintextBehind() throws {
        let dir = TemporaryDirectory()
        let canary = Canary()
        let connection = try Connection(path: dir.file().path, mode: .readWriteCreate)
        try Database(connection: connection).executeScript("PRAGMA journal_mode = WAL")
        try canary.write(Database(connection: connection))
        connection.close()
        #expect(canary.leaks(in: dir.url) != [], "the plaintext source must show the marker, or the scan proves nothing")
        var seenInTheCopy: [String] = []
        try DatabaseTools.encryptPlaintextDatabase(at: dir.file(), password: "secret", configuration: dir.manager().configuration) { _ in
            // While the copy is written, only the source (still plaintext) may show the marker.
            seenInTheCopy += canary.leaks(in: dir.url).filter { !$0.hasSuffix("/test.db") && !$0.hasSuffix("/test.db-wal") }
        }
        #expect(seenInTheCopy == [])
        #expect(canary.leaks(in: dir.url) == [])
    }

    // MARK: - Temporary storage

    /// SQLite's temporary files (named `etilqs_…` and unlinked at once) that this process has open.
    static func openTemporaryFiles() -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.contains("etilqs_") }
    }

    /// A sort far bigger than a tiny page cache, run while watching for temporary files.
    static func bigSortOpensTemporaryFiles(_ manager: DatabaseManager) throws -> Bool {
        var seen = false
        try manager.withDatabase { db in
            try db.execute("PRAGMA cache_size = 8")
            try db.forEachRow("SELECT note || randomblob(200) AS x FROM canary ORDER BY x") { _ in
                if !seen { seen = !openTemporaryFiles().isEmpty }
            }
        }
        return seen
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc/self/fd (Linux)"))
    func temporaryBTreesStayInMemory() throws {
        let dir = TemporaryDirectory()
        let canary = Canary()
        let manager = try Self.createDatabase(in: dir)
        try manager.withDatabase { try canary.write($0, rows: 4000) }
        #expect(try manager.scalar(Int.self, "PRAGMA temp_store") == 2, "temp_store must be MEMORY")
        #expect(try !Self.bigSortOpensTemporaryFiles(manager))
        // The control: with temp_store = FILE the same sort does spill to a temporary file, so
        // the check above can see one.
        try manager.execute("PRAGMA temp_store = FILE")
        #expect(try Self.bigSortOpensTemporaryFiles(manager), "the probe must see a spilled sort")
        // Every new connection is set to memory again.
        try manager.reopen()
        #expect(try manager.scalar(Int.self, "PRAGMA temp_store") == 2)
    }
}
