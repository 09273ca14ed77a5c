import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Files in an older SQLCipher format on whichever SQLCipher is linked: on 4.x a SQLCipher 3
/// file opens with its password only (one more key derivation), is reported, and
/// `upgradeFormat()` rewrites it in the 4.x format; on 3.4.1 the same file is current, and a
/// SQLCipher 2 file is the one to upgrade.
@Suite("Older file formats: found by the open, reported, upgraded crash-safely", .ownThread)
struct FormatUpgradeTests {
    @Test(
        "a SQLCipher 3 file opens with its password only, reports its format, upgrades; then the defaults alone open it",
        arguments: LegacyFile.available)
    func aSQLCipher3FileOpensAndUpgrades(_ writer: LegacyFile) throws {
        let dir = TemporaryDirectory()
        let url = dir.file()
        try writer.write(to: url)
        let before = Fixture.bytes(url)
        let manager = DatabaseManager(url: url)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        // The configured (default) settings, then SQLCipher 3's on 4.x: one derivation each.
        #expect(try derivations { try manager.open(password: LegacyFile.password) } == (LegacyFile.isV4 ? 2 : 1))
        let format = try #require(manager.fileFormat)
        #expect(format.majorVersion == 3 && format.isDefault, "\(format)")
        #expect(format.settings.pageSize == 1024 && format.settings.kdfIterations == 64000)
        #expect((manager.fileFormat?.isUpgradeAvailable ?? false) == LegacyFile.isV4)
        #expect(delegate.events == (LegacyFile.isV4 ? [.didOpen, .didFindOlderFormat(3)] : [.didOpen]))
        let expected = (LegacyFile.rows, 7, writer.journalMode)
        #expect(try legacyContents(manager) == expected)
        // Every later connection uses the settings found, keyed with the key derived once.
        #expect(try derivations { try manager.reopen() } == 0)
        #expect(try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM item") } == 3)
        let result = try manager.upgradeFormat()
        guard LegacyFile.isV4 else {
            #expect(result == .alreadyCurrent(format))
            #expect(Fixture.bytes(url) == before)
            #expect(delegate.events == [.didOpen, .didClose, .didOpen])
            return
        }
        guard case .upgraded(let from, let to) = result else {
            Issue.record("expected an upgrade, got \(result)")
            return
        }
        #expect(from == format)
        #expect(to.majorVersion == 4 && to.isDefault && !to.isUpgradeAvailable, "\(to)")
        #expect(manager.fileFormat == to && !(manager.fileFormat?.isUpgradeAvailable ?? false))
        #expect(delegate.events.suffix(2) == [.willUpgradeFormat(3), .didUpgradeFormat(3, 4)])
        #expect(try legacyContents(manager) == expected)
        manager.close()
        #expect(FileSnapshot(dir.url).leftovers == [])
        // The linked library's defaults alone open it, with one derivation; SQLCipher 3's no longer do.
        let fresh = DatabaseManager(url: url)
        #expect(try derivations { try fresh.open(password: LegacyFile.password) } == 1)
        #expect(fresh.fileFormat?.majorVersion == 4 && !(fresh.fileFormat?.isUpgradeAvailable ?? false))
        #expect(try legacyContents(fresh) == expected)
        fresh.close()
        let pinned = DatabaseManager(url: url, configuration: DatabaseConfiguration(cipher: CipherOptions(compatibility: 3)))
        #expect(thrownCase { try pinned.open(password: LegacyFile.password) } == "incorrectPasswordOrSettings")
    }

    @Test("new databases get the linked library's defaults; compatibility 3 pins SQLCipher 3's format")
    func newDatabasesUseTheLinkedDefaults() throws {
        let dir = TemporaryDirectory()
        let manager = DatabaseManager(url: dir.file("new.db"))
        try manager.create(password: LegacyFile.password)
        let format = try #require(manager.fileFormat)
        #expect(format.majorVersion == LegacyFile.linkedMajor && format.isDefault && !format.isUpgradeAvailable, "\(format)")
        let expected = CipherOptions().resolved(for: try #require(LinkedLibrary.cipherVersion))
        #expect(format.settings == expected)
        if LegacyFile.isV4 {
            #expect(format.settings.pageSize == 4096 && format.settings.kdfIterations == 256_000)
            #expect(format.settings.kdfAlgorithm == .sha512 && format.settings.hmacAlgorithm == .sha512)
        }
        manager.close()
        try LegacyFile.ourLibrary.write(to: dir.file("pinned.db"))
        let pinned = DatabaseManager(url: dir.file("pinned.db"), configuration: DatabaseConfiguration(cipher: LegacyFile.sqlcipher3Options))
        #expect(try derivations { try pinned.open(password: LegacyFile.password) } == 1)
        #expect(pinned.fileFormat?.majorVersion == 3)
    }

    @Test("a SQLCipher 2 file opened with its settings upgrades to the linked format on both SQLCipher versions")
    func aSQLCipher2FileUpgrades() throws {
        let dir = TemporaryDirectory()
        let manager = try makeSQLCipher2File(in: dir, journalMode: .wal)
        let format = try #require(manager.fileFormat)
        #expect(format.majorVersion == 2 && format.isUpgradeAvailable, "\(format)")
        var fractions: [Double] = []
        let result = try manager.upgradeFormat { fractions.append($0) }
        guard case .upgraded(let from, let to) = result else {
            Issue.record("expected an upgrade, got \(result)")
            return
        }
        #expect(from.majorVersion == 2 && to.majorVersion == LegacyFile.linkedMajor && to.isDefault)
        #expect(fractions.first == 0 && fractions.last == 1 && fractions == fractions.sorted())
        // The configuration follows the file: its cipher options are the defaults now.
        #expect(manager.configuration.cipher == CipherOptions())
        #expect(try legacyContents(manager) == (LegacyFile.rows, 7, "wal"))
        #expect(try manager.upgradeFormat() == .alreadyCurrent(to))
        manager.close()
        let fresh = DatabaseManager(url: dir.file())
        try fresh.open(password: LegacyFile.password)
        #expect(fresh.fileFormat == to)
        #expect(try legacyContents(fresh) == (LegacyFile.rows, 7, "wal"))
    }

    @Test("while another process has the file open the upgrade is refused, typed, and nothing changes")
    func refusedWhileAnotherProcessHasTheFile() throws {
        let dir = TemporaryDirectory()
        let manager = try makeSQLCipher2File(in: dir, journalMode: .delete)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        let before = Fixture.bytes(dir.file())
        let holder = try FileHolder(dir.file())
        let error = thrownError { try manager.upgradeFormat() }
        holder.stop()
        guard case .openElsewhere(_, let pid, _)? = error as? DatabaseManagerError else {
            Issue.record("expected openElsewhere, got \(String(describing: error))")
            return
        }
        #expect(pid == holder.processID)
        #expect(delegate.events == [.willUpgradeFormat(2), .didFailToUpgradeFormat("openElsewhere")])
        #expect(Fixture.bytes(dir.file()) == before)
        #expect(FileSnapshot(dir.url).leftovers == [])
        // Still open, in the old format; once the other program is gone it goes through.
        #expect(manager.isOpen && manager.fileFormat?.majorVersion == 2)
        #expect(try legacyContents(manager).rows == LegacyFile.rows)
        #expect(try manager.upgradeFormat() != .alreadyCurrent(try #require(manager.fileFormat)))
        #expect(delegate.events.suffix(2) == [.willUpgradeFormat(2), .didUpgradeFormat(2, LegacyFile.linkedMajor)])
    }

    @Test("events: didOpen, didFindOlderFormat, the upgrade on open, then the migration; the stream carries the formats")
    func eventOrderWithUpgradeOnOpen() async throws {
        let dir = TemporaryDirectory()
        try LegacyFile.ourLibrary.write(to: dir.file())
        var configuration = DatabaseConfiguration()
        configuration.upgradesFormatOnOpen = true
        let manager = DatabaseManager(url: dir.file(), configuration: configuration)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.schemaMigrator = MockSchemaMigrator(targetVersion: 8)
        let migration: [RecordedEvent] = [.willMigrate(7, 8), .didMigrate(7, 8), .didClose]
        let expected: [RecordedEvent] =
            LegacyFile.isV4
            ? [.didOpen, .didFindOlderFormat(3), .willUpgradeFormat(3), .didUpgradeFormat(3, 4)] + migration
                // SQLCipher 3 is the linked format: nothing to find or upgrade.
            : [.didOpen] + migration
        let stream = manager.events()
        let collecting = Task {
            var events: [DatabaseEvent] = []
            for await event in stream {
                events.append(event)
                if events.count == expected.count { break }
            }
            return events
        }
        try manager.open(password: LegacyFile.password)
        manager.close(forgettingKey: false)
        #expect(delegate.events == expected)
        let streamed = await collecting.value
        #expect(streamed.count == expected.count)
        guard LegacyFile.isV4 else { return }
        guard case .didFindOlderFormat(let found) = streamed[1], case .didUpgradeFormat(let old, let new) = streamed[3] else {
            Issue.record("stream: \(streamed)")
            return
        }
        #expect(streamed[0] == .didOpen && streamed[2] == .willUpgradeFormat(found))
        #expect(found.majorVersion == 3 && old == found && new.majorVersion == 4)
        // Upgraded once: the next open finds the current format and says nothing of it.
        let again = DatabaseManager(url: dir.file(), configuration: configuration)
        let quiet = RecordingDelegate()
        again.delegate = quiet
        try again.open(password: LegacyFile.password)
        #expect(quiet.events == [.didOpen] && again.fileFormat?.majorVersion == 4)
    }

    @Test("a configuration that names settings gets exactly those: no SQLCipher 3 attempt, no upgrade on open")
    func pinnedSettingsAreNotSecondGuessed() throws {
        let dir = TemporaryDirectory()
        try LegacyFile.ourLibrary.write(to: dir.file())
        var configuration = DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 100_000))
        configuration.upgradesFormatOnOpen = true
        let manager = DatabaseManager(url: dir.file(), configuration: configuration)
        var outcome = "none"
        #expect(derivations { outcome = thrownCase { try manager.open(password: LegacyFile.password) } } == 1)
        #expect(outcome == "incorrectPasswordOrSettings")
        // A wrong password with the defaults costs the one more derivation on 4.x, and stays wrong.
        let defaults = DatabaseManager(url: dir.file())
        #expect(derivations { outcome = thrownCase { try defaults.open(password: "not-it") } } == (LegacyFile.isV4 ? 2 : 1))
        #expect(outcome == "incorrectPasswordOrSettings")
        #expect(defaults.fileFormat == nil)
    }

    @Test("sibling managers, backups and key slots of a file found in SQLCipher 3's format use its settings")
    func everyConnectionUsesTheFoundSettings() throws {
        let dir = TemporaryDirectory()
        try LegacyFile.ourLibrary.write(to: dir.file())
        let manager = DatabaseManager(url: dir.file())
        try manager.open(password: LegacyFile.password)
        let sibling = DatabaseManager(url: dir.file())
        let siblingEvents = RecordingDelegate()
        sibling.delegate = siblingEvents
        try sibling.open(password: LegacyFile.password)
        // A backup keeps the source's format unless told otherwise.
        try manager.backup(to: dir.file("copy.db"))
        let copy = DatabaseManager(url: dir.file("copy.db"))
        try copy.open(password: LegacyFile.password)
        #expect(copy.fileFormat?.majorVersion == 3)
        copy.close()
        // A password change in place keeps the format; both managers follow it.
        try manager.rekey(to: .password("new-secret"))
        #expect(manager.fileFormat?.majorVersion == 3 && sibling.fileFormat?.majorVersion == 3)
        #expect(try sibling.scalar(Int.self, "SELECT count(*) FROM item") == 3)
        guard LegacyFile.isV4 else { return }
        try manager.upgradeFormat()
        #expect(siblingEvents.events.suffix(2) == [.didRekey, .didUpgradeFormat(3, 4)])
        #expect(sibling.fileFormat?.majorVersion == 4 && sibling.isOpen)
        #expect(try sibling.scalar(Int.self, "SELECT count(*) FROM item") == 3)
    }

    @Test("a key-slot database in SQLCipher 3's format opens with its password, upgrades, and keeps its slots")
    func aKeySlotDatabaseKeepsItsSlots() throws {
        let dir = TemporaryDirectory()
        var configuration = DatabaseConfiguration(cipher: LegacyFile.sqlcipher3Options)
        configuration.keySlots = .fast
        let creator = DatabaseManager(url: dir.file(), configuration: configuration)
        try creator.create(.password(LegacyFile.password), keySlots: true)
        try creator.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        for row in LegacyFile.rows { try creator.execute("INSERT INTO item(name) VALUES (?)", row) }
        creator.close()
        let slots = Fixture.bytes(dir.file().appendingPathExtension("scm-keys"))
        var defaults = DatabaseConfiguration()
        defaults.keySlots = .fast
        let manager = DatabaseManager(url: dir.file(), configuration: defaults)
        try manager.open(password: LegacyFile.password)
        #expect(manager.fileFormat?.majorVersion == 3 && manager.keySlots.isEnabled)
        try manager.upgradeFormat()
        #expect(manager.fileFormat?.majorVersion == LegacyFile.linkedMajor)
        manager.close()
        // The slots are untouched and still give the key; the password still opens it.
        #expect(Fixture.bytes(dir.file().appendingPathExtension("scm-keys")) == slots)
        let fresh = DatabaseManager(url: dir.file(), configuration: defaults)
        try fresh.open(password: LegacyFile.password)
        #expect(try legacyContents(fresh).rows == LegacyFile.rows)
        #expect(fresh.fileFormat?.majorVersion == LegacyFile.linkedMajor)
    }

    // MARK: - Helpers

    /// A SQLCipher 2-format file (4,000 iterations) opened by a manager configured with its settings.
    private func makeSQLCipher2File(in dir: TemporaryDirectory, journalMode: JournalMode) throws -> DatabaseManager {
        let configuration = DatabaseConfiguration(cipher: LegacyFile.sqlcipher2Options, journalMode: journalMode)
        let manager = DatabaseManager(url: dir.file(), configuration: configuration)
        try manager.create(password: LegacyFile.password)
        try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        for row in LegacyFile.rows { try manager.execute("INSERT INTO item(name) VALUES (?)", row) }
        try manager.setSchemaVersion(7)
        manager.close()
        try manager.open(password: LegacyFile.password)
        return manager
    }
}
