import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite struct CipherOptionsTests {
    @Test func linkedVersionIsDetected() throws {
        let version = try #require(DatabaseTools.linkedSQLCipherVersion)
        #expect(version >= SQLCipherVersion(3, 4, 0))
    }

    @Test func versionParsing() {
        #expect(SQLCipherVersion(parsing: "3.4.1") == SQLCipherVersion(3, 4, 1))
        #expect(SQLCipherVersion(parsing: "4.6.1 community") == SQLCipherVersion(4, 6, 1))
        #expect(SQLCipherVersion(parsing: "4.10") == SQLCipherVersion(4, 10, 0))
        #expect(SQLCipherVersion(parsing: "") == nil)
        #expect(SQLCipherVersion(3, 4, 1) < SQLCipherVersion(4, 0, 0))
    }

    @Test func settingsAreAppliedAndReadBack() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager(kdfIterations: 3000) {
            $0.cipher.pageSize = 4096
            $0.cipher.usesHMAC = false
        }
        try manager.create(password: "secret")
        let settings = try manager.cipherInfo.settings
        #expect(settings.kdfIterations == 3000)
        #expect(settings.pageSize == 4096)
        #expect(settings.usesHMAC == false)
        #expect(try manager.cipherInfo.version == DatabaseTools.linkedSQLCipherVersion)
        #expect((DatabaseTools.inspectFile(at: manager.databaseURL!).size ?? 0) % 4096 == 0)
        manager.close()
        // Other settings do not open the file.
        let defaults = dir.manager(kdfIterations: 3000)
        #expect(thrownCase { try defaults.open(password: "secret") } == "incorrectPasswordOrSettings")
        try manager.open(password: "secret")
    }

    @Test(arguments: [0, 100, 511, 1000, 131_072])
    func invalidPageSizesAreRejected(pageSize: Int) {
        let dir = TemporaryDirectory()
        let manager = dir.manager { $0.cipher.pageSize = pageSize }
        #expect(thrownCase { try manager.create(password: "secret") } == "invalidOption")
        #expect(!manager.databaseExists)
    }

    @Test func nonPositiveKDFIterationsAreRejected() {
        let dir = TemporaryDirectory()
        let manager = dir.manager(kdfIterations: 0)
        #expect(thrownCase { try manager.create(password: "secret") } == "invalidOption")
    }

    @Test func fourPointXOptionsThrowOnOlderSQLCipher() throws {
        let version = try #require(DatabaseTools.linkedSQLCipherVersion)
        let options: [(inout CipherOptions) -> Void] = [
            { $0.kdfAlgorithm = .sha512 }, { $0.hmacAlgorithm = .sha256 }, { $0.compatibility = 3 },
        ]
        for apply in options {
            let dir = TemporaryDirectory()
            let manager = dir.manager { apply(&$0.cipher) }
            if version < SQLCipherVersion(4, 0, 0) {
                #expect(thrownCase { try manager.create(password: "secret") } == "unsupportedOption")
                #expect(!manager.databaseExists)
            } else {
                try manager.create(password: "secret")
                #expect(manager.isOpen)
            }
        }
    }

    @Test func pragmasCarryNoKeyMaterialAndFollowOrder() {
        let options = CipherOptions(kdfIterations: 10, pageSize: 4096, usesHMAC: true, compatibility: 3)
        #expect(
            options.pragmas() == [
                "PRAGMA main.cipher_compatibility = 3",
                "PRAGMA main.cipher_page_size = 4096",
                "PRAGMA main.kdf_iter = 10",
                "PRAGMA main.cipher_use_hmac = ON",
            ])
    }
}

@Suite struct ConfigurationTests {
    @Test(arguments: [
        (Duration.seconds(5), 5000), (.microseconds(1500), 2), (.microseconds(1499), 1), (.seconds(-1), 0),
        (.milliseconds(-0.4), 0), (.seconds(Int64(Int32.max)), Int(Int32.max)), (.seconds(1e12), Int(Int32.max)),
    ])
    func busyTimeoutIsClampedToMilliseconds(timeout: Duration, expected: Int) {
        #expect(Int(DatabaseConfiguration(busyTimeout: timeout).busyTimeoutMilliseconds) == expected)
    }

    @Test func theInitializerTakesTheJournalModeAndReaderCount() throws {
        let configuration = DatabaseConfiguration(cipher: .fast(), journalMode: .wal, maximumReaderCount: 2)
        #expect(configuration.journalMode == .wal && configuration.maximumReaderCount == 2)
        #expect(DatabaseConfiguration().journalMode == nil && DatabaseConfiguration().maximumReaderCount == 4)
        let dir = TemporaryDirectory()
        let manager = DatabaseManager(url: dir.file(), configuration: configuration)
        try manager.create(password: "secret")
        #expect(try manager.scalar(String.self, "PRAGMA journal_mode") == "wal")
    }
}
