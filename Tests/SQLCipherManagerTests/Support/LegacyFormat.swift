import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - Files in an older SQLCipher format

/// SQLCipher 3-format files for the format tests, each with the password "secret", the table
/// item(id, name) with rows 'v3-0', 'v3-1', 'v3-2' and `user_version` 7.
enum LegacyFile: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// `Tests/Fixtures/sqlcipher3-default.sqlcipher`, written by the SQLCipher 3.4.1 shell (WAL mode).
    case shippedShellFile
    /// Written now by the SQLCipher 3.4.1 shell, when it is on this machine (rollback journal).
    case liveShell
    /// Written now by this library in SQLCipher 3's format: `cipher_compatibility = 3` on
    /// SQLCipher 4, the defaults on 3.x (rollback journal).
    case ourLibrary

    var testDescription: String { rawValue }

    static let rows = ["v3-0", "v3-1", "v3-2"]
    static let password = "secret"

    /// The writers available here: the live 3.4.1 shell only where it is installed
    /// (`SQLCIPHER=3 scripts/ensure-deps.sh`); the shipped file is its output either way.
    static var available: [LegacyFile] { allCases.filter { $0 != .liveShell || sqlcipher3Shell != nil } }

    /// The journal mode the file is in.
    var journalMode: String { self == .shippedShellFile ? "wal" : "delete" }

    /// Debian 12's SQLCipher 3.4.1 shell: `SCM_SQLCIPHER3_SHELL`, the `SQLCIPHER=3` leg's shell, or
    /// the copy `scripts/ensure-deps.sh` unpacks; `nil` when none runs as 3.x.
    static let sqlcipher3Shell: URL? = {
        let environment = ProcessInfo.processInfo.environment
        let unpacked = Interop.repository.appendingPathComponent(".build/sqlcipher3/root/usr/bin/sqlcipher").path
        let candidates: [String?] = [environment["SCM_SQLCIPHER3_SHELL"], environment["SCM_SQLCIPHER_SHELL"], unpacked]
        return candidates.compactMap { $0 }.map { URL(fileURLWithPath: $0) }.first { url in
            guard FileManager.default.isExecutableFile(atPath: url.path),
                let output = try? runProcess(url, ["-batch", ":memory:"], input: Data("PRAGMA key = 'k';\nPRAGMA cipher_version;\n".utf8))
            else { return false }
            return output.stdout.hasPrefix("3.")
        }
    }()

    /// Writes the file at `url`.
    func write(to url: URL) throws {
        switch self {
        case .shippedShellFile:
            try FileManager.default.copyItem(at: Fixture.shipped("sqlcipher3-default.sqlcipher"), to: url)
        case .liveShell:
            let shell = try #require(Self.sqlcipher3Shell)
            let script = """
                PRAGMA key = 'secret';
                CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT);
                INSERT INTO item(name) VALUES ('v3-0'), ('v3-1'), ('v3-2');
                PRAGMA user_version = 7;

                """
            let output = try runProcess(shell, ["-batch", "-bail", url.path], input: Data(script.utf8))
            try #require(output.status == 0, "\(output.stderr)")
        case .ourLibrary:
            let manager = DatabaseManager(url: url, configuration: DatabaseConfiguration(cipher: Self.sqlcipher3Options))
            try manager.create(password: Self.password)
            try manager.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
            for row in Self.rows { try manager.execute("INSERT INTO item(name) VALUES (?)", row) }
            try manager.setSchemaVersion(7)
            manager.close()
        }
    }

    /// The options that write SQLCipher 3's format with the linked library.
    static var sqlcipher3Options: CipherOptions { isV4 ? CipherOptions(compatibility: 3) : CipherOptions() }

    /// The options that write SQLCipher 2's format (4,000 iterations) with the linked library.
    static var sqlcipher2Options: CipherOptions {
        isV4
            ? CipherOptions(compatibility: 2, allowsLegacyKDFIterations: true)
            : CipherOptions(kdfIterations: 4000, allowsLegacyKDFIterations: true)
    }

    /// `true` when SQLCipher 4 or later is linked.
    static var isV4: Bool { (LinkedLibrary.cipherVersion?.major ?? 3) >= 4 }

    /// The linked library's major version: the format new files get by default.
    static var linkedMajor: Int { LinkedLibrary.cipherVersion?.major ?? 3 }
}

/// The derivations `body` runs on this thread (``KeyDerivation/counter``).
func derivations(_ body: () throws -> Void) rethrows -> Int {
    let counter = DerivationCounter()
    try KeyDerivation.$counter.withValue(counter) { try body() }
    return counter.count
}

/// The open database's rows of `item`, `user_version` and journal mode.
func legacyContents(_ manager: DatabaseManager) throws -> (rows: [String], userVersion: Int, journalMode: String) {
    let rows = try manager.fetchAll("SELECT name FROM item ORDER BY id").compactMap { $0.value(0, as: String.self) }
    return (rows, try manager.schemaVersion, try manager.scalar(String.self, "PRAGMA journal_mode") ?? "")
}
