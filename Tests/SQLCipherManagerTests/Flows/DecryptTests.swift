import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

@Suite("Decrypt", .ownThread)
struct DecryptTests {
    @Test("decrypt writes a complete plaintext copy; the database is untouched and stays open")
    func decrypt() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir, rows: 300)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        let original = Fixture.bytes(dir.file())
        let before = try manager.withDatabase { try DatabaseFingerprint($0.connection) }
        var fractions: [Double] = []
        try manager.decrypt(to: dir.file("plain.db")) { fractions.append($0) }

        #expect(Fixture.bytes(dir.file()) == original)
        #expect(manager.isOpen)
        #expect(try manager.withDatabase { try RichDatabase.constraintsWork($0) })
        #expect(fractions.last == 1)
        #expect(DatabaseFile(path: dir.file("plain.db").path).isPlaintextSQLite)
        #expect(Fixture.contains(dir.file("plain.db"), "MARKER-1"))
        let plain = try Connection(path: dir.file("plain.db").path, mode: .readOnly)
        defer { plain.close() }
        #expect(try DatabaseFingerprint(plain) == before)
        #expect(try RichDatabase.verify(Database(connection: plain), rows: 300) == [])
        #expect(FileSnapshot(dir.url).leftovers == [])
    }

    @Test("the plaintext copy is readable by its owner only; an encrypted copy keeps the source's permissions")
    func copyPermissions() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir.file().path)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        try manager.decrypt(to: dir.file("plain.db"))
        #expect(permissions(dir.file("plain.db")) == 0o600)

        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: dir.file("plain.db").path)
        try DatabaseTools.encryptPlaintextDatabase(
            at: dir.file("plain.db"), to: dir.file("again.db"), password: "new-secret", configuration: manager.configuration)
        #expect(permissions(dir.file("again.db")) == 0o640)
    }

    @Test("decrypt refuses a closed manager, an existing or impossible destination, an open transaction")
    func refusals() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let manager = dir.manager()
        #expect(throws: DatabaseManagerError.notOpen) { try manager.decrypt(to: dir.file("plain.db")) }
        try manager.open(password: "old-secret")
        try Data("occupied".utf8).write(to: dir.file("taken.db"))
        let snapshot = FileSnapshot(dir.url)

        #expect(thrownCase { try manager.decrypt(to: dir.file("taken.db")) } == "fileAlreadyExists")
        #expect(thrownCase { try manager.decrypt(to: dir.file("no/such/directory.db")) } == "parentDirectoryMissing")
        // Inside the manager's own transaction closure: refused before anything is looked at.
        #expect(thrownCase { try manager.transactionSync { _ in try manager.decrypt(to: dir.file("plain.db")) } } == "reentrantCall")
        try manager.execute("BEGIN")
        #expect(throws: DatabaseManagerError.transactionInProgress) { try manager.decrypt(to: dir.file("plain.db")) }
        try manager.execute("ROLLBACK")
        #expect(FileSnapshot(dir.url) == snapshot)
    }

    @Test(
        "a read-only destination directory: permissionDenied, nothing written",
        .enabled(if: ReadOnly.isSupported, "cannot make a directory read-only here (root without chattr +i)"))
    func readOnlyDirectory() throws {
        let dir = TemporaryDirectory()
        let out = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let manager = dir.manager()
        try manager.open(password: "old-secret")
        let failure = ReadOnly.whileReadOnly(out.url) { thrownCase { try manager.decrypt(to: out.file("plain.db")) } }
        #expect(failure == "permissionDenied")
        #expect(FileSnapshot(out.url).files.isEmpty)
    }
}
