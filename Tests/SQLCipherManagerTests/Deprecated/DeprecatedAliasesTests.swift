import Foundation
import Testing

@testable import SQLCipherManager

/// The deprecated spellings kept for one release still do what their new names do. Each check is
/// a `@available(*, deprecated)` witness of ``AliasCheck``, called through the protocol: the
/// aliases are compiled and run, and the build stays free of deprecation warnings.
protocol AliasCheck {
    func run(in dir: TemporaryDirectory) throws
}

@Suite struct DeprecatedAliasesTests {
    @Test func folderSpellings() throws {
        try (FolderAliases() as any AliasCheck).run(in: TemporaryDirectory())
    }

    @Test func rekeyAndPasswordSpellings() throws {
        try (RekeyAliases() as any AliasCheck).run(in: TemporaryDirectory())
    }

    @Test func rowSpellings() throws {
        try (RowAliases() as any AliasCheck).run(in: TemporaryDirectory())
    }

    @Test func busyTimeoutInSeconds() throws {
        try (BusyTimeoutAliases() as any AliasCheck).run(in: TemporaryDirectory())
    }

    @Test func staticsOnTheManager() throws {
        try (ToolsAliases() as any AliasCheck).run(in: TemporaryDirectory())
    }
}

struct FolderAliases: AliasCheck {
    @available(*, deprecated)
    func run(in dir: TemporaryDirectory) throws {
        #expect(DatabaseManagerError.isDirectory(path: "/x").caseName == "isFolder")
        #expect(DatabaseManagerError.parentDirectoryMissing(path: "/x").caseName == "parentFolderMissing")
        #expect(DatabaseFileInfo.Kind.directory == .folder)
        let incomplete: SchemaMigratorIncomplete = MigrationIncompleteError(reached: 1, target: 2)
        #expect(incomplete.target == 2)
        switch DatabaseManager.inspectFile(at: dir.url).kind {
        case .directory: break
        default: Issue.record("a folder is not .directory")
        }
    }
}

struct RekeyAliases: AliasCheck {
    @available(*, deprecated)
    func run(in dir: TemporaryDirectory) throws {
        let manager = dir.manager { $0.passwordPolicy = .minimumLength(6) }
        #expect(!manager.isValid(password: "short"))
        #expect(manager.configuration.passwordPolicy.isValid("long enough"))
        try manager.create(password: "first password")
        try manager.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        try manager.rekey(to: "second password")
        #expect(manager.isCurrentPassword("second password"))
        let raw = Data(repeating: 7, count: 32)
        try manager.rekey(toRawKey: raw)
        manager.close()
        try manager.open(rawKey: raw)
        let key = try DatabaseKey.generate()
        try manager.rekey(toKey: key)
        manager.close()
        try manager.open(key: key)
        #expect(try manager.scalar(Int.self, "SELECT x FROM t") == 1)
    }
}

struct RowAliases: AliasCheck {
    @available(*, deprecated)
    func run(in dir: TemporaryDirectory) throws {
        let manager = try dir.createdManager(table: "CREATE TABLE t(id INTEGER, title TEXT)")
        try manager.execute("INSERT INTO t VALUES (1, 'one'), (2, NULL)")
        try manager.withDatabase { db in
            var titles: [String?] = []
            try db.prepare("SELECT title FROM t WHERE id >= ? ORDER BY id").forEachRow(1) { titles.append($0.string(0)) }
            #expect(titles == ["one", nil])
            var ids: [Int64] = []
            try db.forEachStatement(in: "SELECT id FROM t ORDER BY id") { statement in
                try statement.forEachRow { ids.append($0.int64(0)) }
            }
            #expect(ids == [1, 2])
        }
    }
}

struct BusyTimeoutAliases: AliasCheck {
    @available(*, deprecated)
    func run(in dir: TemporaryDirectory) throws {
        let cases: [(Double, Int)] = [(5, 5000), (0.0015, 2), (-1, 0), (.nan, 0), (.infinity, Int(Int32.max)), (1e12, Int(Int32.max))]
        for (seconds, expected) in cases {
            let configuration = DatabaseConfiguration(busyTimeout: seconds, foreignKeys: false)
            #expect(Int(configuration.busyTimeoutMilliseconds) == expected, "\(seconds) s")
            #expect(!configuration.foreignKeys)
        }
    }
}

struct ToolsAliases: AliasCheck {
    @available(*, deprecated)
    func run(in dir: TemporaryDirectory) throws {
        #expect(DatabaseManager.linkedSQLCipherVersion == DatabaseTools.linkedSQLCipherVersion)
        #expect(DatabaseManager.linkedSQLiteVersion == DatabaseTools.linkedSQLiteVersion)
        #expect(DatabaseManager.knownCipherSettings == DatabaseTools.knownCipherSettings)
        let plain = dir.file("plain.db")
        try Fixture.makePlaintextDatabase(at: plain, rows: 3)
        #expect(DatabaseManager.inspectFile(at: plain).kind == .plaintextSQLite)
        #expect(DatabaseManager.inspectFile(atPath: plain.path).kind == .plaintextSQLite)
        #expect(try DatabaseManager.recoverInterruptedOperation(at: plain) == .nothingToRecover)
        let configuration = DatabaseConfiguration(cipher: .fast())
        try DatabaseManager.encryptPlaintextDatabase(at: plain, to: dir.file("p.db"), password: "secret", configuration: configuration)
        let raw = Data(repeating: 1, count: 32)
        try DatabaseManager.encryptPlaintextDatabase(at: plain, to: dir.file("r.db"), rawKey: raw, configuration: configuration)
        let key = try DatabaseKey.generate()
        try DatabaseManager.encryptPlaintextDatabase(at: plain, to: dir.file("k.db"), key: key, configuration: configuration)
        let manager = dir.manager("k.db")
        try manager.open(key: key)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM item") == 3)
        let info = try manager.cipherInfo
        #expect(manager.cipherVersion.flatMap(SQLCipherVersion.init(parsing:)) == info.version)
        #expect(manager.cipherProvider == info.provider)
        #expect(try manager.cipherSettings() == info.settings)
    }
}
