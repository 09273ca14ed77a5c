// swift-format-ignore-file
// (These samples are README.md's own text, compared with it line by line: not reformatted.)
import Foundation
import SQLCipherManager
import Testing

/// Every ```swift block of README.md runs here: each is the text between a `// README begin`
/// and a `// README end` line of a test file (de-indented; a README block's leading `import`
/// lines are this file's imports), so a README sample cannot drift from code that compiles,
/// runs and is checked. Public API only: this file does not `@testable import`.
@Suite("README: every Swift sample compiles, runs and matches")
struct ReadmeSamplesTests {
    // MARK: - A first program

    /// README's first sample, run as written: it creates, then opens and adds a row, and with a
    /// wrong password says so and changes nothing.
    @Test func theFirstSampleCreatesThenOpensAndAWrongPasswordChangesNothing() async throws {
        let dir = TemporaryDirectory()
        #expect(try await firstSample(appSupport: dir.url, password: "correct horse").isOpen)
        #expect(try await firstSample(appSupport: dir.url, password: "correct horse").isOpen)
        let before = try Data(contentsOf: dir.url.appendingPathComponent("notes.db"))
        #expect(try await !firstSample(appSupport: dir.url, password: "wrong horse").isOpen)
        #expect(try Data(contentsOf: dir.url.appendingPathComponent("notes.db")) == before)
        let check = DatabaseManager(url: dir.url.appendingPathComponent("notes.db"))
        try check.open(password: "correct horse")
        #expect(try await check.read { try $0.fetchAll(String.self, "SELECT title FROM note") } == ["Hello", "Hello"])
    }

    /// The manager the first sample leaves behind (open after a right password).
    private func firstSample(appSupport: URL, password: String) async throws -> DatabaseManager {
        // README begin
        let manager = DatabaseManager(url: appSupport.appendingPathComponent("notes.db"))
        do {
            if manager.databaseExists { try manager.open(password: password) }
            else { try manager.create(password: password) }
            try await manager.write { db in
                try db.execute("CREATE TABLE IF NOT EXISTS note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
                try db.execute("INSERT INTO note(title) VALUES (?)", "Hello")
            }
            let titles = try await manager.read { db in
                try db.fetchAll(String.self, "SELECT title FROM note ORDER BY id")
            }
            print(titles)                                    // ["Hello"], then one more each run
        } catch DatabaseManagerError.incorrectPasswordOrSettings {
            print("Incorrect password")                      // nothing was opened or changed: ask again
            // README end
        }
        return manager
    }

    /// A newcomer meets a short sample first: the README's first Swift block starts within its
    /// first 60 lines and is at most 20 lines long.
    @Test func theREADMEStartsWithAShortSample() throws {
        let readme = try Self.documentation("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "```swift" })
        #expect(start < 60, "the first sample starts at line \(start + 1)")
        let length = try #require(lines[(start + 1)...].firstIndex { $0 == "```" }) - start - 1
        #expect(length <= 20, "the first sample is \(length) lines long")
    }

    // MARK: - Using the manager (the article)

    /// The usage sample, run as written: create, then a wrong password (said, and nothing
    /// else happens: no "No database is open"), then the right one.
    @Test func theUsageSampleHandlesAWrongPasswordAndCarriesOnOnlyWhenUnlocked() throws {
        let dir = TemporaryDirectory()
        #expect(try usageSample(appSupport: dir.url, password: "correct horse") == ["Hello"])
        #expect(try usageSample(appSupport: dir.url, password: "wrong horse") == nil)
        #expect(try usageSample(appSupport: dir.url, password: "correct horse") == ["Hello", "Hello"])
    }

    /// The titles the sample read, or `nil` when it did not unlock.
    private func usageSample(appSupport: URL, password: String) throws -> [String]? {
        var result: [String]?
        // README begin
        final class AppDelegate: DatabaseManagerDelegate {
            func databaseManagerDidOpen(_ manager: DatabaseManager) { print("opened") }
            func databaseManager(_ manager: DatabaseManager, didFail error: DatabaseManagerError) {
                print("database error: \(error)")   // says what to do next, never shows a password
            }
        }

        var migrator = VersionedSchemaMigrator()             // steps keyed on PRAGMA user_version
        migrator.register(version: 1) { db in
            try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        }

        let app = AppDelegate()
        let manager = DatabaseManager(url: appSupport.appendingPathComponent("notes.db"))
        manager.delegate = app                               // held weakly
        manager.schemaMigrator = migrator                    // runs after every create / open
        var unlocked = false
        do {
            if manager.databaseExists { try manager.open(password: password) }
            else { try manager.create(password: password) }
            unlocked = true
        } catch DatabaseManagerError.incorrectPasswordOrSettings {
            print("Incorrect password")                      // nothing is open: ask again
        }
        if unlocked {
            let titles = try manager.writeSync { db in
                try db.execute("INSERT INTO note(title) VALUES (?)", "Hello")
                return try db.fetchAll(String.self, "SELECT title FROM note ORDER BY id")
            }
            print(titles)
            // README end
            result = titles
        }
        #expect(manager.isOpen == (result != nil))
        return result
    }

    // MARK: - Typed reads

    @Test func theTypedReadSampleDecodesRowsAndSaysWhyAReadFails() throws {
        let dir = TemporaryDirectory()
        let manager = DatabaseManager(url: dir.url.appendingPathComponent("notes.db"))
        try manager.create(password: "secret")
        try manager.writeSync { db in try db.executeScript("""
            CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);
            INSERT INTO note(title, body) VALUES ('Hello', NULL), ('Bank', 'PIN is in the safe'), ('Hi', 'x');
            """) }
        var failure = ""
        // README begin
        struct Note: Decodable {
            var id: Int64
            var title: String
            var body: String?                                // NULL is nil
        }
        let (notes, count) = try manager.readSync { db in
            (try db.fetchAll(Note.self, "SELECT * FROM note WHERE title LIKE :prefix", arguments: ["prefix": "H%"]),
             try db.decodeScalar(Int.self, "SELECT count(*) FROM note"))
        }
        do {
            _ = try manager.readSync { db in try db.decodeScalar(Int.self, "SELECT title FROM note") }
        } catch let error as SQLiteError {
            print(error.localizedDescription)                // column "title" (index 0) holds TEXT, which cannot be read as Int
            // README end
            failure = error.localizedDescription
        }
        #expect(notes.map(\.title) == ["Hello", "Hi"])
        #expect(notes.map(\.body) == [nil, "x"])
        #expect(count == 3)
        #expect(failure.contains("column \"title\" (index 0) holds TEXT, which cannot be read as Int"))
    }

    // MARK: - Records

    @Test func theRecordsSampleInsertsUpdatesSavesDeletesAndFetches() throws {
        let dir = TemporaryDirectory()
        let manager = DatabaseManager(url: dir.url.appendingPathComponent("notes.db"))
        try manager.create(password: "secret")
        try manager.writeSync { db in try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created TEXT NOT NULL)") }
        // README begin
        struct Note: Codable, TableRecord {
            static var databaseTableName: String { "note" }  // primaryKey: ["id"]
            var id: Int64?                                   // nil: SQLite assigns the rowid
            var title: String
            var created: Date                                // TEXT "YYYY-MM-DD HH:MM:SS.SSS", UTC
        }
        let drafts = (1...3).map { Note(id: nil, title: "Draft \($0)", created: Date()) }
        let first = try manager.writeSync { db in
            let id = try db.insert(Note(id: nil, title: "Hello", created: Date()))   // the new rowid
            try db.update(Note(id: id, title: "Hello again", created: Date()))
            try db.save(Note(id: 7, title: "Inserted or updated", created: Date())) // an upsert
            try db.insert(contentsOf: drafts)                                        // one statement
            try db.delete(Note.self, id: 7)
            return try db.fetch(Note.self, id: id)
        }
        print(first?.title ?? "none")                        // Hello again
        // README end
        #expect(first?.id == 1)
        #expect(first?.title == "Hello again")
        #expect(try manager.readSync { db in try db.fetchAll(String.self, "SELECT title FROM note ORDER BY id") } == ["Hello again", "Draft 1", "Draft 2", "Draft 3"])
        #expect(try manager.readSync { db in try db.decodeScalar(Int.self, "SELECT count(*) FROM note WHERE created GLOB '????-??-?? ??:??:??.???'") } == 4)
    }

    // MARK: - Why a file does not open

    @Test func theDiagnosisSampleOpensAFileWrittenWithOtherSettings() throws {
        let dir = TemporaryDirectory()
        let url = dir.url.appendingPathComponent("old.db")
        // The SQLCipher 1 format, written the way the linked SQLCipher writes it.
        let legacy =
            (DatabaseTools.linkedSQLCipherVersion?.major ?? 3) >= 4
            ? CipherOptions(compatibility: 1) : CipherOptions(kdfIterations: 4000, usesHMAC: false, allowsLegacyKDFIterations: true)
        let writer = DatabaseManager(url: url, configuration: DatabaseConfiguration(cipher: legacy))
        try writer.create(password: "secret")
        writer.close()
        let manager = DatabaseManager(url: url)
        let password = "secret"
        // README begin
        do {
            try manager.open(password: password)
        } catch DatabaseManagerError.incorrectPasswordOrSettings {
            if case .opens(let found) = try manager.diagnoseCipherSettings(password: password) {
                print("Right password; the file uses \(found.summary) (\(found.name))")  // e.g. kdf_iter 4000 and no HMAC
                manager.configuration.cipher = found.options
                try manager.open(password: password)
            }
        }
        // README end
        #expect(manager.isOpen)
        let found = manager.configuration.cipher
        #expect(found.compatibility == legacy.compatibility && found.kdfIterations == legacy.kdfIterations)
        #expect(found.usesHMAC == legacy.usesHMAC && found.pageSize == nil)
    }

    // MARK: - Changing passwords and encrypting existing databases

    @Test func theRekeyAndEncryptSamplesRunInOrder() throws {
        let dir = TemporaryDirectory()
        let (password, newPassword) = ("old password", "new password")
        let key32 = Data((0..<32).map { UInt8($0) })
        let legacyURL = dir.url.appendingPathComponent("legacy.db")
        let encryptedURL = dir.url.appendingPathComponent("encrypted.db")
        let plaintextURL = dir.url.appendingPathComponent("plain-copy.db")
        let url = dir.url.appendingPathComponent("adopted.db")
        try Self.writePlaintext(at: legacyURL, scratch: dir.url.appendingPathComponent("scratch.db"))
        try FileManager.default.copyItem(at: legacyURL, to: url)
        let manager = DatabaseManager(url: dir.url.appendingPathComponent("notes.db"))
        try manager.create(password: password)
        try manager.writeSync { db in try db.execute("CREATE TABLE note(title TEXT)") }
        let progressBar = ProgressBar()
        // README begin
        try manager.rekey(to: .password(newPassword)) { fraction in progressBar.update(fraction) }   // open database
        try manager.rekey(to: .password(newPassword), options: CipherOptions(kdfIterations: 256_000, pageSize: 4096))
        try manager.rekey(to: .rawKey(key32))

        try DatabaseTools.encryptPlaintextDatabase(at: legacyURL, to: encryptedURL, password: password)  // a new file
        try DatabaseTools.encryptPlaintextDatabase(at: legacyURL, password: password)                    // in place
        try manager.decrypt(to: plaintextURL)                                                     // a plaintext copy

        let configuration = DatabaseConfiguration(adoptsPlaintextDatabase: true)   // encrypt a plaintext
        let adopting = DatabaseManager(url: url, configuration: configuration)    // file on first open
        // README end
        #expect(progressBar.last == 1)
        try adopting.open(password: password)
        #expect(try adopting.readSync { db in try db.decodeScalar(Int.self, "SELECT count(*) FROM item") } == 2)
        for encrypted in [legacyURL, encryptedURL] {
            let check = DatabaseManager(url: encrypted)
            try check.open(password: password)
            #expect(try check.readSync { db in try db.decodeScalar(Int.self, "SELECT count(*) FROM item") } == 2)
        }
        #expect(DatabaseTools.inspectFile(at: plaintextURL).kind == .plaintextSQLite)
    }

    // MARK: - Backup

    @Test func theBackupSampleWritesCopiesThatOpenWithTheirKeys() throws {
        let dir = TemporaryDirectory()
        let backups = dir.url
        let password = "correct horse"
        let manager = DatabaseManager(url: dir.url.appendingPathComponent("notes.db"))
        try manager.create(password: password)
        try manager.writeSync { db in try db.executeScript("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO note(title) VALUES ('Hello');") }
        // README begin
        let backupURL = backups.appendingPathComponent("notes-backup.db")     // must not exist yet
        try manager.backup(to: backupURL) { fraction in print("backup: \(Int(fraction * 100)) %") }

        let restored = DatabaseManager(url: backupURL)
        try restored.open(password: password)                                 // the same password
        let count = try restored.readSync { db in try db.scalar(Int.self, "SELECT count(*) FROM note") }

        try manager.backup(to: backups.appendingPathComponent("shared.db"),
                           key: .password("a password of its own"))            // or .rawKey(key32)
        // README end
        #expect(count == 1)
        let shared = DatabaseManager(url: backups.appendingPathComponent("shared.db"))
        try shared.open(password: "a password of its own")
        #expect(try shared.readSync { db in try db.scalar(String.self, "SELECT title FROM note") } == "Hello")
        // A second backup to the same name is refused: a backup never overwrites.
        #expect(thrownError { try manager.backup(to: backupURL) } is DatabaseManagerError)
    }

    /// The progress bar of the rekey sample: keeps the last fraction.
    final class ProgressBar {
        private(set) var last = 0.0
        func update(_ fraction: Double) { last = fraction }
    }

    /// A plaintext SQLite database with a table of two rows: an encrypted one made at
    /// `scratch`, decrypted to `url` (public API only).
    static func writePlaintext(at url: URL, scratch: URL) throws {
        let manager = DatabaseManager(url: scratch)
        try manager.create(password: "scratch")
        try manager.writeSync { db in try db.executeScript("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item(name) VALUES ('a'), ('b');") }
        try manager.decrypt(to: url)
        manager.close()
    }

    // MARK: - The README itself

    @Test func everySwiftBlockOfTheREADMEIsASampleRunByATest() throws {
        let blocks = Self.swiftBlocks(in: try Self.documentation("README.md"))
        #expect(!blocks.isEmpty)
        for block in try Self.uncovered(blocks) {
            Issue.record("no test runs this README block:\n\(block)")
        }
    }

    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of README.md or another file of the repository.
    static func documentation(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The blocks no `// README begin` … `// README end` section of the tests runs, a block's
    /// leading `import` lines aside (they must be imports of this file).
    static func uncovered(_ blocks: [String]) throws -> [String] {
        let samples = try samples(under: root.appendingPathComponent("Tests"))
        let imports = try String(contentsOfFile: #filePath, encoding: .utf8).split(separator: "\n").map(String.init)
        return blocks.filter { block in
            var lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while let first = lines.first, first.hasPrefix("import ") || first.isEmpty {
                if !first.isEmpty && !imports.contains(first) { return true }
                lines.removeFirst()
            }
            let code = lines.joined(separator: "\n")
            return !samples.contains { sample($0, covers: code) }
        }
    }

    /// The text of every ```swift block.
    static func swiftBlocks(in markdown: String) -> [String] {
        markdown.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
    }

    /// Every `// README begin` … `// README end` section of the test files below `directory`,
    /// de-indented by the begin marker's indentation.
    static func samples(under directory: URL) throws -> [String] {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.flatMap { file -> [String] in
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var sections: [String] = []
            var current: [Substring]?
            var indent = 0
            for line in lines {
                let trimmed = line.drop { $0 == " " }
                if trimmed == "// README begin" {
                    current = []
                    indent = line.count - trimmed.count
                } else if trimmed == "// README end", let body = current {
                    sections.append(body.map { $0.prefix(indent).allSatisfy { $0 == " " } ? String($0.dropFirst(indent)) : String($0) }
                        .joined(separator: "\n"))
                    current = nil
                } else {
                    current?.append(line)
                }
            }
            return sections
        }
    }

    /// `true` when the README block is the section, give or take the closing braces of the
    /// block the section's markers sit in.
    static func sample(_ section: String, covers block: String) -> Bool {
        guard block.hasPrefix(section) else { return false }
        return block.dropFirst(section.count).allSatisfy { $0 == "}" || $0 == " " || $0 == "\n" }
    }
}
