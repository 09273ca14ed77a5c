import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// `CipherOptions.largePages`: a new database with 4,096-byte pages and the linked SQLCipher's
/// other settings (on 3.x SQLCipher 3's; on 4.x its defaults, whose page size is already 4,096)
/// opens in the `sqlcipher` shell of the linked version with the pragmas its documentation gives,
/// not with SQLCipher 3's defaults, and the settings diagnosis finds it.
@Suite struct CipherOptionsProfileTests {
    private static let password = "profile's password"

    private func createdDatabase(_ dir: TemporaryDirectory) throws -> URL {
        let manager = DatabaseManager(url: dir.file(), configuration: DatabaseConfiguration(cipher: .largePages))
        try manager.create(password: Self.password)
        try manager.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x TEXT)")
        try manager.transactionSync { db in
            for id in 1...300 { try db.execute("INSERT INTO t VALUES (?, ?)", id, "row \(id) " + String(repeating: "z", count: id % 90)) }
        }
        #expect(try manager.scalar(Int.self, "PRAGMA page_size") == 4096)
        manager.close()
        return dir.file()
    }

    @Test func theProfilesDatabaseOpensInTheLinkedShellWithTheDocumentedPragma() throws {
        let dir = TemporaryDirectory()
        let url = try createdDatabase(dir)
        #expect(CipherOptions.largePages.pageSize == 4096)
        #expect(CipherOptions.largePages.kdfIterations == nil && CipherOptions.largePages.usesHMAC == nil)
        let key = "PRAGMA key = \(sqlLiteral(Self.password));\n"
        let opened = try sqlcipherShell(
            url.path, key + "PRAGMA cipher_page_size = 4096;\nSELECT count(*), sum(length(x)) FROM t;\nPRAGMA integrity_check;\n")
        #expect(opened.status == 0, "sqlcipher: \(opened.stderr)")
        let expectedLength = (1...300).reduce(0) { $0 + "row \($1) ".count + $1 % 90 }
        // SQLCipher 4.3+ answers `PRAGMA key` with a row "ok".
        let keyRow = LinkedFormat.isSQLCipher4 ? ["ok"] : []
        #expect(opened.stdout.split(separator: "\n").map(String.init) == keyRow + ["300|\(expectedLength)", "ok"])
        // SQLCipher 3's defaults (1,024-byte pages; on 4.x `cipher_compatibility = 3`) do not open it.
        let v3Defaults = LinkedFormat.isSQLCipher4 ? "PRAGMA cipher_compatibility = 3;\n" : ""
        let defaults = try sqlcipherShell(url.path, key + v3Defaults + "SELECT count(*) FROM t;\n")
        #expect(defaults.status != 0)
        #expect(defaults.stderr.contains("not a database"))
    }

    @Test func theSettingsDiagnosisFindsTheProfile() throws {
        let dir = TemporaryDirectory()
        let url = try createdDatabase(dir)
        // On 4.x the profile is the linked defaults: a manager without settings opens it, and one
        // configured for the SQLCipher 3 format is told the defaults.
        let configured = LinkedFormat.isSQLCipher4 ? CipherOptions(compatibility: 3) : CipherOptions()
        if LinkedFormat.isSQLCipher4 {
            let plain = DatabaseManager(url: url)
            try plain.open(password: Self.password)
            #expect(try plain.scalar(Int.self, "SELECT count(*) FROM t") == 300)
            plain.close()
        }
        let manager = DatabaseManager(url: url, configuration: DatabaseConfiguration(cipher: configured))
        #expect(thrownCase { try manager.open(password: Self.password) } == "incorrectPasswordOrSettings")
        guard case .opens(let candidate) = try manager.diagnoseCipherSettings(password: Self.password) else {
            Issue.record("the diagnosis did not find the profile's settings")
            return
        }
        #expect(candidate.options.resolved(for: LinkedLibrary.cipherVersion!).pageSize == 4096)
        #expect(candidate.name == (LinkedFormat.isSQLCipher4 ? "SQLCipher 4 defaults" : "SQLCipher 3 defaults with 4096-byte pages"))
        let reopened = DatabaseManager(url: url, configuration: DatabaseConfiguration(cipher: candidate.options))
        try reopened.open(password: Self.password)
        #expect(try reopened.scalar(Int.self, "SELECT count(*) FROM t") == 300)
        reopened.close()
    }
}
