import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherManager

/// SQLCipher's own log: off unless routed, and routed where the application says. The route is
/// process-wide, so this suite runs its cases one at a time and restores the silence after each.
@Suite(.serialized) struct SQLCipherLogTests {
    /// SQLCipher 4.6 and later log a failed page decrypt; 3.x has no log, 4.0–4.5 none by default.
    static let logsFailedDecrypts = (LinkedLibrary.cipherVersion ?? SQLCipherVersion(0, 0)) >= SQLCipherVersion(4, 6)

    /// Reads a database whose last page is damaged: SQLCipher fails that page's HMAC check (and
    /// logs "hmac check failed"). A wrong password would not do: the library proves a key itself
    /// before SQLCipher decrypts a page with it.
    private func readDamagedPage(_ dir: TemporaryDirectory) throws {
        let url = try Fixture.makeEncryptedDatabase(in: dir, rows: 500)
        var bytes = Fixture.bytes(url)
        bytes[bytes.count - 200] ^= 0x01
        try bytes.write(to: url)
        let manager = dir.manager()
        try manager.open(password: "secret")
        defer { manager.close() }
        #expect(thrownError { _ = try manager.fetchAll("SELECT * FROM item") } != nil)
    }

    @Test func theLogIsOffUntilTheApplicationRoutesIt() throws {
        #expect(SQLCipherLog.current.level == .none)
        #expect(SQLCipherLog.current.target == .off)
    }

    @Test func aRoutedLogReachesItsFileAndStopsWhenSilencedAgain() throws {
        let dir = TemporaryDirectory()
        let log = dir.url.appendingPathComponent("sqlcipher.log").path
        SQLCipherLog.route(level: .warn, to: .file(log))
        defer { SQLCipherLog.route(level: .none, to: .off) }
        #expect(SQLCipherLog.current.level == .warn)
        try readDamagedPage(dir)
        // SQLCipher buffers a file target's lines until the log is routed elsewhere.
        SQLCipherLog.route(level: .none, to: .off)
        let routed = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        if Self.logsFailedDecrypts {
            #expect(routed.contains("hmac check failed"), "\(routed)")
        } else {
            #expect(routed.isEmpty, "\(routed)")
        }
        let before = (try? Data(contentsOf: URL(fileURLWithPath: log))) ?? Data()
        try readDamagedPage(TemporaryDirectory())
        #expect(((try? Data(contentsOf: URL(fileURLWithPath: log))) ?? Data()) == before, "a silenced log still wrote")
    }
}
