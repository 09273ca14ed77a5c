import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The policy guards new passwords (create, rekey, encrypt, adopt) and never the login.
@Suite struct PasswordPolicyTests {
    @Test func aShortWrongPasswordAtLoginIsAWrongPasswordNotAPolicyViolation() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager { $0.passwordPolicy = .minimumLength(8) }
        try manager.create(password: "long-enough-secret")
        manager.close()
        let before = Fixture.bytes(dir.file())
        #expect(thrownCase { try manager.open(password: "x") } == "incorrectPasswordOrSettings")
        #expect(!manager.isOpen)
        #expect(Fixture.bytes(dir.file()) == before)
        try manager.open(password: "long-enough-secret")
        #expect(manager.isOpen)
    }

    @Test func tighteningThePolicyDoesNotLockOutAnExistingUser() throws {
        let dir = TemporaryDirectory()
        let before = dir.manager()
        try before.create(password: "short")
        try before.execute("CREATE TABLE t(x)")
        before.close()
        // The app's update requires 12 characters; the old password still opens the file…
        let after = dir.manager { $0.passwordPolicy = .minimumLength(12) }
        #expect(!after.configuration.passwordPolicy.accepts("short"))
        try after.open(password: "short")
        #expect(try after.scalar(Int.self, "SELECT count(*) FROM t") == 0)
        // …but a new password must satisfy the new policy.
        #expect(thrownCase { try after.rekey(to: .password("short2")) } == "invalidPassword")
        try after.rekey(to: .password("a-much-longer-password"))
        after.close()
        try after.open(password: "a-much-longer-password")
        #expect(after.isOpen)
    }

    @Test func theCreateFlowsStillApplyThePolicy() throws {
        let dir = TemporaryDirectory()
        let strict = { (configuration: inout DatabaseConfiguration) in configuration.passwordPolicy = .minimumLength(10) }
        #expect(thrownCase { try dir.manager(configure: strict).create(password: "short") } == "invalidPassword")
        #expect(!FileManager.default.fileExists(atPath: dir.file().path))
        // Adopting a plaintext file on open encrypts it with the password: a new password.
        try Fixture.makePlaintextDatabase(at: dir.file("plain.db"))
        let snapshot = Fixture.bytes(dir.file("plain.db"))
        let adopting = dir.manager("plain.db") {
            strict(&$0)
            $0.adoptsPlaintextDatabase = true
        }
        #expect(thrownCase { try adopting.open(password: "short") } == "invalidPassword")
        #expect(Fixture.bytes(dir.file("plain.db")) == snapshot)
        try adopting.open(password: "long-enough-1")
        #expect(try adopting.scalar(Int.self, "SELECT count(*) FROM item") == 3)
    }

    @Test func anEmptyPasswordAtOpenIsAWrongPasswordNotAPolicyError() throws {
        let dir = TemporaryDirectory()
        let url = try Fixture.makeEncryptedDatabase(in: dir)
        let before = Fixture.bytes(url)
        for policy in [PasswordPolicy.default, .minimumLength(8), .custom { _ in nil }] {
            let manager = dir.manager { $0.passwordPolicy = policy }
            #expect(thrownCase { try manager.open(password: "") } == "incorrectPasswordOrSettings")
            // Whitespace is a password like any other: tried, and wrong here.
            #expect(thrownCase { try manager.open(password: "  ") } == "incorrectPasswordOrSettings")
            #expect(!manager.isOpen)
        }
        #expect(Fixture.bytes(url) == before)
        #expect(thrownCase { try dir.manager("missing.db").open(password: "") } == "fileNotFound")
        try dir.createdKeySlotManager("slots.db").close()
        let slots = thrownError { try dir.keySlotManager("slots.db").open(password: "") }
        #expect(slots.map(outcomeName) == "incorrectPasswordOrSettings")
        #expect("\(slots.map { "\($0)" } ?? "")".contains("key slots in \(dir.slotFile("slots.db").path)"))
    }
}
