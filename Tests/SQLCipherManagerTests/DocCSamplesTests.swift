// swift-format-ignore-file
// (These samples are the DocC articles' own text, compared with them line by line: not reformatted.)
import Foundation
import SQLCipherManager
import Testing

/// The Swift samples of the DocC articles, run as written: each is the text between a
/// `// README begin` and a `// README end` line of a test file, found and compared as
/// ``ReadmeSamplesTests`` does for README.md. Public API only.
@Suite("DocC: the articles' Swift samples compile, run and match")
struct DocCSamplesTests {
    /// The catalog's articles whose every ```swift block must be a sample run by a test.
    static let checkedArticles = [
        "LoginFlow.md", "BackingUp.md", "CodableRecords.md", "Observation.md", "SQLFeatures.md", "UsingTheManager.md",
        "ThreadsAndObservation.md", "KeyChangesAndEncryption.md", "KeysAndKeySlots.md",
    ]

    // MARK: - LoginFlow: change the password

    /// The LoginFlow article's step 3, as written, on the open `manager`.
    private func loginFlowChangePassword(_ manager: DatabaseManager, current: String, new: String) throws -> String {
        // README begin
        /// The current password, then the new one twice; what to tell the user.
        func changePassword(current: String, new: String, confirmation: String) throws -> String {
            guard manager.isCurrentPassword(current) else { return "Incorrect password" }
            guard new == confirmation else { return "The new passwords do not match" }
            if let reason = manager.configuration.passwordPolicy.reasonToReject(new) { return reason }
            if manager.keySlots.isEnabled {
                try manager.keySlots.change(password: current, to: new)   // one slot resealed
            } else {
                try manager.rekey(to: .password(new))                      // on failure the old one still opens
            }
            return "Password changed"
        }
        // README end
        return try changePassword(current: current, new: new, confirmation: new)
    }

    @Test("LoginFlow's change-password recipe on a key-slot database: just opened, then reopened", arguments: [false, true])
    func changePasswordRecipeOnAKeySlotDatabase(reopened: Bool) throws {
        let dir = TemporaryDirectory()
        var manager = dir.keySlotManager()
        try manager.create(.password("first-secret"), keySlots: true)
        if reopened {
            manager.close()
            manager = dir.keySlotManager()
            try manager.open(password: "first-secret")
        }
        #expect(manager.isCurrentPassword("first-secret"))
        #expect(!manager.isCurrentPassword("other-secret"))
        #expect(try loginFlowChangePassword(manager, current: "wrong-secret", new: "x-secret") == "Incorrect password")
        #expect(try loginFlowChangePassword(manager, current: "first-secret", new: "second-secret") == "Password changed")
        #expect(manager.isCurrentPassword("second-secret"))
        #expect(!manager.isCurrentPassword("first-secret"))
        #expect(try loginFlowChangePassword(manager, current: "second-secret", new: "third-secret") == "Password changed")
        manager.close()
        let fresh = dir.keySlotManager()
        #expect(thrownCase { try fresh.open(password: "second-secret") } == "incorrectPasswordOrSettings")
        try fresh.open(password: "third-secret")
        #expect(fresh.isCurrentPassword("third-secret"))
    }

    @Test("LoginFlow's change-password recipe on a password database rekeys it")
    func changePasswordRecipeOnAPasswordDatabase() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "first-secret")
        #expect(try loginFlowChangePassword(manager, current: "wrong-secret", new: "x-secret") == "Incorrect password")
        #expect(try loginFlowChangePassword(manager, current: "first-secret", new: "second-secret") == "Password changed")
        #expect(manager.isCurrentPassword("second-secret"))
        manager.close()
        let fresh = dir.manager()
        #expect(thrownCase { try fresh.open(password: "first-secret") } == "incorrectPasswordOrSettings")
        try fresh.open(password: "second-secret")
    }

    @Test("a key-slot database opened by a recovery key has no current password; a removed one is not current")
    func recoveryKeyAndRemovedPassword() throws {
        let dir = TemporaryDirectory()
        let manager = dir.keySlotManager()
        try manager.create(.password("first-secret"), keySlots: true)
        let recovery = try manager.keySlots.addRecoveryKey()
        try manager.keySlots.add(password: "second-secret")
        try manager.keySlots.remove(password: "first-secret")
        #expect(!manager.isCurrentPassword("first-secret"))
        manager.close()
        try manager.open(recoveryKey: recovery.text)
        #expect(!manager.isCurrentPassword("second-secret"))
    }

    // MARK: - What the articles must say

    /// The text of a catalog article, or of a file of the repository.
    static func text(_ relativePath: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    static let catalog = "Sources/SQLCipherManager/SQLCipherManager.docc/"

    /// The section of `markdown` under the heading `## title`, up to the next `## `.
    static func section(_ title: String, of markdown: String) -> String {
        guard let start = markdown.range(of: "## \(title)\n") else { return "" }
        let rest = markdown[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    @Test func addThePackageNamesEverySystemPackageAndShowsTheDependency() throws {
        let section = Self.section("Add the package", of: try Self.text(Self.catalog + "GettingStarted.md"))
        let manifest = try Self.text("Package.swift")
        // Every apt package the manifest names as a provider, and the ones the README lists.
        let providers = manifest.components(separatedBy: ".apt([").dropFirst().flatMap {
            $0.prefix { $0 != "]" }.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        }
        for package in Set(providers + ["libsqlcipher-dev", "libssl-dev", "libsodium-dev", "libsecret-1-dev", "pkg-config"]) {
            #expect(section.contains(package), "Add the package does not name \(package)")
        }
        #expect(section.range(of: #"libsecret-1-dev[^\n]*\n?[^\n]*SQLCipherSecretService|SQLCipherSecretService[\s\S]{0,200}libsecret-1-dev"#, options: .regularExpression) != nil)
        #expect(section.contains(".package(") && section.contains(#".product(name: "SQLCipherManager""#))
    }

    @Test func theConcurrencyArticleCoversReadWriteWALAndEvents() throws {
        let article = try Self.text(Self.catalog + "Concurrency.md")
        for needed in [
            "``DatabaseManager/readSync(_:)``", "``DatabaseManager/writeSync(_:)``", "try await manager.read",
            "``JournalMode/wal``", "``DatabaseConfiguration/maximumReaderCount``", "``DatabaseManager/events()``",
            "``DatabaseEvent/didClose``", "CancellationError",
        ] {
            #expect(article.contains(needed), "Concurrency.md does not mention \(needed)")
        }
    }

    @Test func theKeyringArticleNamesEveryPublicMemberOfSecretServiceKeyStore() throws {
        let article = try Self.text(Self.catalog + "SecretServiceKeyStore.md")
        let source = try Self.text("Sources/SQLCipherSecretService/SecretServiceKeyStore.swift")
        let members = source.split(separator: "\n").compactMap { line -> String? in
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard words.first == "public", words.count > 2 else { return nil }
            if words[1].hasPrefix("init(") { return "init(service:)" }
            switch words[1] {
            case "func": return String(words[2].prefix { $0 != "(" }) + "("
            case "let", "var": return String(words[2].prefix { $0 != ":" })
            default: return nil  // the class itself
            }
        }
        #expect(members.count >= 6, "\(members)")
        for member in members + ["SecretServiceKeyStore", "SQLCipherSecretService", "libsecret-1-dev"] {
            #expect(article.contains(member), "SecretServiceKeyStore.md does not name \(member)")
        }
        #expect(try Self.text(Self.catalog + "SQLCipherManager.md").contains("<doc:SecretServiceKeyStore>"))
    }

    // MARK: - The articles themselves

    @Test func everySwiftBlockOfTheCheckedArticlesIsASampleRunByATest() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = root.appendingPathComponent("Sources/SQLCipherManager/SQLCipherManager.docc")
        for article in Self.checkedArticles {
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            let blocks = ReadmeSamplesTests.swiftBlocks(in: text)
            #expect(!blocks.isEmpty, "\(article) has no Swift sample")
            for block in try ReadmeSamplesTests.uncovered(blocks) {
                Issue.record("no test runs this block of \(article):\n\(block)")
            }
        }
    }
}
