import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// What the errors say: localized descriptions, a wrong raw key, a capped integrity report.
@Suite struct ErrorReportingTests {
    @Test func sqliteErrorHasAUsefulLocalizedDescription() throws {
        let dir = TemporaryDirectory()
        let manager = try dir.createdManager(table: "CREATE TABLE t(x)")
        let error = try #require(thrownError { try manager.execute("SELEC 1") } as? SQLiteError)
        #expect(error.localizedDescription == error.description)
        #expect(error.localizedDescription.contains("syntax error"))
        #expect(error.localizedDescription.contains("SELEC 1"))
        #expect(!error.localizedDescription.contains("The operation could not be completed"))
    }

    @Test func aWrongRawKeyIsReportedAsAWrongKeyNotAPassword() throws {
        let dir = TemporaryDirectory()
        let key = Data((0..<32).map { UInt8($0) })
        let manager = dir.manager()
        try manager.create(.rawKey(key))
        manager.close()
        var other = key
        other[31] ^= 0x80
        let error = try #require(thrownError { try manager.open(.rawKey(other)) } as? DatabaseManagerError)
        guard case .incorrectKeyOrSettings(let path) = error else {
            Issue.record("expected incorrectKeyOrSettings, got \(error)")
            return
        }
        #expect(path == dir.file().path)
        #expect(!error.description.contains("password"))
        #expect(error.description.contains("raw key"))
        // A password keeps its own message.
        let wrongPassword = try #require(thrownError { try manager.open(password: "guess") } as? DatabaseManagerError)
        #expect(wrongPassword.description.hasPrefix("Incorrect password"))
    }

    @Test func theCorruptErrorOfChecksIntegrityOnOpenShowsAFewProblemsAndCountsTheRest() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        let filler = String(repeating: "x", count: 200)
        try manager.transactionSync { db in
            try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)")
            try db.execute("CREATE TABLE u(id INTEGER PRIMARY KEY, v TEXT)")
            // About 70 pages of u's own, whatever the page size.
            for _ in 0..<(300 * LinkedFormat.pageSize / 1024) {
                try db.execute("INSERT INTO t(v) VALUES (?)", filler)
                try db.execute("INSERT INTO u(v) VALUES (?)", filler)
            }
        }
        // Point table u at t's pages: u's own pages are then "never used", one problem each.
        try manager.executeScript(
            """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET rootpage = (SELECT rootpage FROM sqlite_master WHERE name = 't') WHERE name = 'u';
            """)
        manager.close()
        let plain = dir.manager()
        try plain.open(password: "secret")
        let problems = try plain.integrityProblems(quick: true)
        #expect(problems.count > 20)
        #expect(problems.allSatisfy { !$0.contains("\n") })
        plain.close()

        let checking = dir.manager { $0.checksIntegrityOnOpen = true }
        let error = try #require(thrownError { try checking.open(password: "secret") } as? DatabaseManagerError)
        guard case .corrupt(_, let underlying) = error, let message = underlying?.message else {
            Issue.record("expected corrupt with a message, got \(error)")
            return
        }
        #expect(message.components(separatedBy: "; ").count == IntegrityCheck.summaryLimit + 1)
        #expect(message.contains("and \(problems.count - IntegrityCheck.summaryLimit) more problems"))
        #expect(!message.contains("\n"))
        #expect(error.description.count < 600)
    }

    @Test func theIntegritySummaryListsEverythingWhenThereAreFewProblems() {
        #expect(IntegrityCheck.summary(["a"]) == "a")
        #expect(IntegrityCheck.summary(["a", "b", "c"]) == "a; b; c")
        #expect(
            IntegrityCheck.summary(["a", "b", "c", "d"]).hasSuffix("; and 1 more problem (integrityProblems() lists them all)"))
    }
}
