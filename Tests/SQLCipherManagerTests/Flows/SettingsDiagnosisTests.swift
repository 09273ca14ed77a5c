import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `diagnoseCipherSettings`: the right password with other settings is found on real files
/// written with each known set (by this library and by the Debian `sqlcipher` shell), a wrong
/// password is told apart, and nothing on disk ever changes.
@Suite struct SettingsDiagnosisTests {
    /// A set no ladder tries, so every diagnosis below starts from a failed configuration.
    static let unusual = CipherOptions(kdfIterations: 4321, allowsLegacyKDFIterations: true)

    /// Writes `test.db` with `options` (iterations below the floor allowed) and one row, keyed with `password`.
    static func write(_ dir: TemporaryDirectory, _ options: CipherOptions, password: String = "secret") throws -> URL {
        var options = options
        options.allowsLegacyKDFIterations = true
        let manager = DatabaseManager(url: dir.file(), configuration: DatabaseConfiguration(cipher: options))
        try manager.create(password: password)
        try manager.execute("CREATE TABLE t(x TEXT)")
        try manager.execute("INSERT INTO t VALUES ('MARKER')")
        manager.close()
        return dir.file()
    }

    static func diagnose(_ url: URL, password: String = "secret", alsoTrying extra: [CipherSettingsCandidate] = [])
        throws -> CipherSettingsDiagnosis
    {
        let manager = DatabaseManager(url: url, configuration: DatabaseConfiguration(cipher: unusual))
        #expect(thrownCase { try manager.open(password: password) } == "incorrectPasswordOrSettings")
        return try manager.diagnoseCipherSettings(password: password, alsoTrying: extra)
    }

    /// The candidate found, after checking that it really opens the file.
    static func found(_ diagnosis: CipherSettingsDiagnosis, _ url: URL, password: String = "secret") throws -> CipherSettingsCandidate {
        guard case .opens(let candidate) = diagnosis else {
            Issue.record("no set was found: \(diagnosis)")
            throw Missing()
        }
        let manager = DatabaseManager(url: url, configuration: DatabaseConfiguration(cipher: candidate.options))
        try manager.open(password: password)
        #expect(try manager.scalar(String.self, "SELECT x FROM t") == "MARKER")
        manager.close()
        return candidate
    }

    struct Missing: Error {}

    /// A file to write and what the diagnosis must say, on each leg: SQLCipher 3 writes the
    /// older formats with their pragma values, SQLCipher 4 with `cipher_compatibility` (on 4.x
    /// `kdf_iter = 4000` alone writes the 4.x format with 4000 iterations, the last three cases).
    struct Written: Sendable, CustomTestStringConvertible {
        typealias Expected = (options: CipherOptions, name: String, summary: String)
        let v3: Expected
        let v4: Expected
        var linked: Expected { LinkedFormat.isSQLCipher4 ? v4 : v3 }
        var testDescription: String { linked.name }
    }

    static let writtenFormats: [Written] = [
        Written(
            v3: (CipherOptions(kdfIterations: 4000), "SQLCipher 2 format", "kdf_iter 4000"),
            v4: (CipherOptions(compatibility: 2), "SQLCipher 2 format", "cipher_compatibility 2")),
        Written(
            v3: (CipherOptions(kdfIterations: 4000, usesHMAC: false), "SQLCipher 1 format", "kdf_iter 4000 and no HMAC"),
            v4: (CipherOptions(compatibility: 1), "SQLCipher 1 format", "cipher_compatibility 1")),
        Written(
            v3: (CipherOptions(pageSize: 4096), "SQLCipher 3 defaults with 4096-byte pages", "4096-byte pages"),
            v4: (
                CipherOptions(pageSize: 4096, compatibility: 3), "SQLCipher 3 format with 4096-byte pages",
                "cipher_compatibility 3 and 4096-byte pages"
            )),
        Written(
            v3: (
                CipherOptions(kdfIterations: 4000, pageSize: 8192), "SQLCipher 2 format with 8192-byte pages",
                "kdf_iter 4000 and 8192-byte pages"
            ),
            v4: (
                CipherOptions(pageSize: 8192, compatibility: 2), "SQLCipher 2 format with 8192-byte pages",
                "cipher_compatibility 2 and 8192-byte pages"
            )),
        Written(
            v3: (
                CipherOptions(kdfIterations: 4000, pageSize: 16384, usesHMAC: false), "SQLCipher 1 format with 16384-byte pages",
                "kdf_iter 4000, 16384-byte pages and no HMAC"
            ),
            v4: (
                CipherOptions(pageSize: 16384, compatibility: 1), "SQLCipher 1 format with 16384-byte pages",
                "cipher_compatibility 1 and 16384-byte pages"
            )),
        // The linked defaults with another kdf_iter or page size, no cipher_compatibility.
        Written(
            v3: (CipherOptions(kdfIterations: 64000), "SQLCipher 3 defaults", "the defaults"),
            v4: (CipherOptions(kdfIterations: 64000), "SQLCipher 4 format with kdf_iter 64000", "kdf_iter 64000")),
        Written(
            v3: (
                CipherOptions(kdfIterations: 4000, pageSize: 8192), "SQLCipher 2 format with 8192-byte pages",
                "kdf_iter 4000 and 8192-byte pages"
            ),
            v4: (
                CipherOptions(kdfIterations: 4000, pageSize: 8192), "SQLCipher 4 format with kdf_iter 4000 and 8192-byte pages",
                "kdf_iter 4000 and 8192-byte pages"
            )),
        Written(
            v3: (CipherOptions(pageSize: 16384), "SQLCipher 3 defaults with 16384-byte pages", "16384-byte pages"),
            v4: (CipherOptions(pageSize: 16384), "SQLCipher 4 defaults with 16384-byte pages", "16384-byte pages")),
    ]

    @Test(arguments: writtenFormats)
    func findsTheSetAFileWasWrittenWith(_ written: Written) throws {
        let dir = TemporaryDirectory()
        let url = try Self.write(dir, written.linked.options)
        let candidate = try Self.found(Self.diagnose(url), url)
        #expect(candidate.name == written.linked.name)
        #expect(candidate.summary == written.linked.summary)
        // The set found opens the file as the one it was written with does.
        #expect(
            candidate.options.resolved(for: LinkedLibrary.cipherVersion!)
                == written.linked.options.resolved(for: LinkedLibrary.cipherVersion!))
    }

    @Test func findsTheLinkedDefaults() throws {
        let dir = TemporaryDirectory()
        let url = try Self.write(dir, CipherOptions())
        let candidate = try Self.found(Self.diagnose(url), url)
        #expect(candidate.options == CipherOptions())
        #expect(candidate.summary == "the defaults")
    }

    @Test func aWrongPasswordOpensWithNoSetAndEveryKnownSetIsTried() throws {
        let dir = TemporaryDirectory()
        let url = try Self.write(dir, CipherOptions(kdfIterations: 4000))
        guard case .noKnownSettingsOpen(let tried) = try Self.diagnose(url, password: "not-it") else {
            Issue.record("a wrong password was reported as right")
            return
        }
        #expect(tried == DatabaseTools.knownCipherSettings)
        #expect(tried.count == (LinkedFormat.isSQLCipher4 ? 24 : 12), "3 formats × 4 page sizes on SQLCipher 3, 6 × 4 on SQLCipher 4")
    }

    @Test func callerSetsAreTriedFirst() throws {
        let dir = TemporaryDirectory()
        let url = try Self.write(dir, CipherOptions(kdfIterations: 6000, pageSize: 2048))
        #expect(try Self.diagnose(url) == .noKnownSettingsOpen(tried: DatabaseTools.knownCipherSettings))
        let recorded = CipherSettingsCandidate(
            name: "recorded", options: CipherOptions(kdfIterations: 6000, pageSize: 2048, allowsLegacyKDFIterations: true))
        #expect(try Self.found(Self.diagnose(url, alsoTrying: [recorded]), url) == recorded)
    }

    @Test func theConfiguredSetIsNotTriedAgain() throws {
        let dir = TemporaryDirectory()
        let url = try Self.write(dir, CipherOptions(kdfIterations: 4000))
        let manager = DatabaseManager(url: url, configuration: DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 64000)))
        guard case .noKnownSettingsOpen(let tried) = try manager.diagnoseCipherSettings(password: "wrong") else {
            Issue.record("a wrong password was reported as right")
            return
        }
        // 64000 is the 3.x default; on 4.x it is the 4.x format with SQLCipher 3's kdf_iter: already failed.
        let configured = LinkedFormat.isSQLCipher4 ? "SQLCipher 4 format with kdf_iter 64000" : "SQLCipher 3 defaults"
        #expect(DatabaseTools.knownCipherSettings.contains { $0.name == configured })
        #expect(!tried.contains { $0.name == configured })
        #expect(tried.count == DatabaseTools.knownCipherSettings.count - 1)
        #expect(tried.count == (LinkedFormat.isSQLCipher4 ? 23 : 11))
    }

    @Test func nothingOnDiskChangesAndNoSidecarIsCreated() throws {
        let dir = TemporaryDirectory()
        let url = try Self.write(dir, Self.writtenFormats[1].linked.options)
        let before = FileSnapshot(dir.url)
        let modified = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
        _ = try Self.found(Self.diagnose(url), url)
        // `found` opened it read-write to check; diagnose again with nothing else touching it.
        let settled = FileSnapshot(dir.url)
        let settledDate = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
        _ = try Self.diagnose(url)
        _ = try Self.diagnose(url, password: "wrong")
        #expect(FileSnapshot(dir.url) == settled, "\(FileSnapshot(dir.url).differences(from: settled))")
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date == settledDate)
        #expect(settled.files.keys.sorted() == before.files.keys.sorted())
        #expect(modified != nil)
    }

    @Test func aWALModeFileIsFoundWithoutCreatingItsWALOrSHM() throws {
        let dir = TemporaryDirectory()
        var options = Self.writtenFormats[0].linked.options
        options.allowsLegacyKDFIterations = true
        let manager = DatabaseManager(url: dir.file(), configuration: DatabaseConfiguration(cipher: options))
        try manager.create(password: "secret")
        try manager.execute("PRAGMA journal_mode = WAL")
        try manager.execute("CREATE TABLE t(x TEXT)")
        try manager.execute("INSERT INTO t VALUES ('MARKER')")
        manager.close()
        let before = FileSnapshot(dir.url)
        #expect(!before.files.keys.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "\(before)")
        guard case .opens(let candidate) = try Self.diagnose(dir.file()) else {
            Issue.record("the WAL-mode file was not found")
            return
        }
        #expect(candidate.name == "SQLCipher 2 format")
        #expect(FileSnapshot(dir.url) == before, "\(FileSnapshot(dir.url).differences(from: before))")
    }

    @Test func fileProblemsAreReportedBeforeAnyKey() throws {
        let dir = TemporaryDirectory()
        let missing = DatabaseManager(url: dir.file("none.db"))
        #expect(thrownCase { _ = try missing.diagnoseCipherSettings(password: "x") } == "fileNotFound")
        try Fixture.makePlaintextDatabase(at: dir.file("plain.db"))
        let plain = DatabaseManager(url: dir.file("plain.db"))
        #expect(thrownCase { _ = try plain.diagnoseCipherSettings(password: "x") } == "plaintextDatabase")
        #expect(throws: DatabaseManagerError.notConfigured) { _ = try DatabaseManager().diagnoseCipherSettings(password: "x") }
    }

    /// Files written by another client, the Debian `sqlcipher` shell of the linked version, with
    /// each set's pragmas as that version takes them (3.x: its values; 4.x: `cipher_compatibility`),
    /// and a 3.x-era `kdf_iter = 4000` alone, which 4.x applies to its own format.
    @Test(arguments: [
        (
            ["PRAGMA kdf_iter = 4000;", "PRAGMA cipher_use_hmac = OFF;"], ["PRAGMA cipher_compatibility = 1;"], "SQLCipher 1 format",
            "SQLCipher 1 format"
        ),
        (
            ["PRAGMA kdf_iter = 4000;", "PRAGMA cipher_page_size = 4096;"],
            ["PRAGMA cipher_compatibility = 2;", "PRAGMA cipher_page_size = 4096;"], "SQLCipher 2 format with 4096-byte pages",
            "SQLCipher 2 format with 4096-byte pages"
        ),
        (
            ["PRAGMA cipher_page_size = 8192;"], ["PRAGMA cipher_page_size = 8192;"], "SQLCipher 3 defaults with 8192-byte pages",
            "SQLCipher 4 defaults with 8192-byte pages"
        ),
        (["PRAGMA kdf_iter = 4000;"], ["PRAGMA kdf_iter = 4000;"], "SQLCipher 2 format", "SQLCipher 4 format with kdf_iter 4000"),
    ])
    func findsTheSetOfAFileTheShellWrote(_ pragmas3: [String], _ pragmas4: [String], _ name3: String, _ name4: String) throws {
        let (pragmas, name) = LinkedFormat.isSQLCipher4 ? (pragmas4, name4) : (pragmas3, name3)
        let dir = TemporaryDirectory()
        let script =
            (["PRAGMA key = 'secret';"] + pragmas + ["CREATE TABLE t(x TEXT);", "INSERT INTO t VALUES ('MARKER');"])
            .joined(separator: "\n") + "\n"
        let output = try sqlcipherShell(dir.file().path, script)
        try #require(output.status == 0, "sqlcipher: \(output.stderr)")
        let before = FileSnapshot(dir.url)
        let diagnosis = try Self.diagnose(dir.file())
        #expect(FileSnapshot(dir.url) == before)
        #expect(try Self.found(diagnosis, dir.file()).name == name)
    }

    /// Files SQLCipher 4 (Python's sqlcipher3) writes in the older formats with
    /// `PRAGMA cipher_compatibility` 1, 2 and 3 (and a page size), a third writer.
    /// The SQLCipher 3 format is the linked defaults on 3.x, an older format on 4.x.
    @Test(arguments: [
        (["PRAGMA cipher_compatibility = 1"], "SQLCipher 1 format", "SQLCipher 1 format"),
        (
            ["PRAGMA cipher_compatibility = 2", "PRAGMA cipher_page_size = 8192"], "SQLCipher 2 format with 8192-byte pages",
            "SQLCipher 2 format with 8192-byte pages"
        ),
        (["PRAGMA cipher_compatibility = 3"], "SQLCipher 3 defaults", "SQLCipher 3 format"),
    ])
    func findsTheFormatSQLCipher4WroteForAnOlderVersion(_ pragmas: [String], _ name3: String, _ name4: String) throws {
        let name = LinkedFormat.isSQLCipher4 ? name4 : name3
        let dir = TemporaryDirectory()
        var request = PythonRequest(path: dir.file().path, key: .password("secret"), pragmas: pragmas)
        request.statements = [("CREATE TABLE t(x TEXT)", []), ("INSERT INTO t VALUES ('MARKER')", [])]
        _ = try request.rows()
        let before = FileSnapshot(dir.url)
        let diagnosis = try Self.diagnose(dir.file())
        #expect(FileSnapshot(dir.url) == before)
        #expect(try Self.found(diagnosis, dir.file()).name == name)
    }

    /// The README's sample: diagnose, take the found options, open.
    @Test func theREADMESampleOpensWithTheFoundSettings() throws {
        let dir = TemporaryDirectory()
        let written = Self.writtenFormats[1].linked
        let url = try Self.write(dir, written.options)
        let manager = DatabaseManager(url: url)
        let password = "secret"
        var said: [String] = []
        do {
            try manager.open(password: password)
        } catch DatabaseManagerError.incorrectPasswordOrSettings {
            if case .opens(let found) = try manager.diagnoseCipherSettings(password: password) {
                said.append("Right password; the file uses \(found.summary) (\(found.name))")
                manager.configuration.cipher = found.options
                try manager.open(password: password)
            }
        }
        #expect(said == ["Right password; the file uses \(written.summary) (SQLCipher 1 format)"])
        #expect(try manager.scalar(String.self, "SELECT x FROM t") == "MARKER")
    }

    @Test func resolvingSpellsOutTheDefaults() {
        let v3 = SQLCipherVersion(3, 4, 1)
        #expect(CipherOptions().resolved(for: v3) == CipherOptions(kdfIterations: 64000, pageSize: 1024, usesHMAC: true))
        #expect(CipherOptions(usesHMAC: false).resolved(for: v3).kdfIterations == 64000)
        let v4 = SQLCipherVersion(4, 6, 1)
        #expect(
            CipherOptions(compatibility: 3).resolved(for: v4)
                == CipherOptions(kdfIterations: 64000, pageSize: 1024, usesHMAC: true, kdfAlgorithm: .sha1, hmacAlgorithm: .sha1))
        #expect(CipherOptions().resolved(for: v4).kdfIterations == 256_000)
        let ladder4 = CipherSettingsCandidate.known(for: v4)
        #expect(
            ladder4.prefix(6).map(\.name) == [
                "SQLCipher 4 defaults", "SQLCipher 3 format", "SQLCipher 2 format", "SQLCipher 1 format",
                "SQLCipher 4 format with kdf_iter 64000", "SQLCipher 4 format with kdf_iter 4000",
            ])
        #expect(ladder4.count == 24)
        #expect(Set(ladder4.map { $0.options.resolved(for: v4) }).count == 24, "no two sets open a file the same way")
        #expect(ladder4.contains { $0.options == CipherOptions(pageSize: 1024) })
        #expect(ladder4.contains { $0.name == "SQLCipher 4 format with kdf_iter 4000 and 16384-byte pages" })
        #expect(CipherSettingsCandidate.known(for: SQLCipherVersion(4, 0, 0)).count == 12, "no cipher_compatibility before 4.0.1")
        let ladder3 = CipherSettingsCandidate.known(for: v3)
        #expect(ladder3.prefix(3).map(\.name) == ["SQLCipher 3 defaults", "SQLCipher 2 format", "SQLCipher 1 format"])
        #expect(Set(ladder3.map { $0.options.resolved(for: v3) }).count == 12)
    }
}
