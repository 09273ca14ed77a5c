import Foundation
import TestSupport
import Testing

/// cipherdb rekey, encrypt, decrypt and settings, end to end.
@Suite(.ownThread) struct CipherDBMigrationTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    func createSample() throws {
        try cli.createDatabase("CREATE TABLE t(name TEXT); INSERT INTO t VALUES ('MARKER-1'), ('MARKER-2'); PRAGMA user_version = 3")
    }

    func names(_ file: String, password: String, settings: [String]) throws -> ProgramResult {
        try cli(["exec", file, "SELECT name FROM t ORDER BY name"] + settings, stdin: password + "\n")
    }

    @Test func rekeyReadsOldThenNewPasswordFromStdin() throws {
        try createSample()
        let rekey = try cli(["rekey", "db.db"] + fast, stdin: password + "\nnew-pass-2\n")
        #expect(rekey.status == 0, "\(rekey.output)")
        #expect(try names("db.db", password: "new-pass-2", settings: fast).stdout == "name\nMARKER-1\nMARKER-2\n")
        #expect(try names("db.db", password: password, settings: fast).status == 3)
    }

    @Test func rekeyWithAWrongOldPasswordExits3AndChangesNothing() throws {
        try createSample()
        let before = directory.bytes("db.db")
        let rekey = try cli(["rekey", "db.db", "--new-password-env", "NEWPW"] + fast, stdin: "wrong\n", environment: ["NEWPW": "x-1"])
        #expect(rekey.status == 3)
        #expect(directory.bytes("db.db") == before)
    }

    @Test func decryptThenEncryptInPlaceAndToAFile() throws {
        try createSample()
        let decrypt = try cli(["decrypt", "db.db", "--to", "plain.db"] + fast, stdin: password + "\n")
        #expect(decrypt.status == 0, "\(decrypt.output)")
        #expect(directory.isPlaintextSQLite("plain.db"))
        let info = try cli(["info", "plain.db"])
        #expect(info.stdout.contains("kind: plaintext SQLite database"))
        #expect(info.stdout.contains("schema version: 3"))
        #expect(try names("plain.db", password: password, settings: fast).status == 6)

        let copy = try cli(["encrypt", "plain.db", "--to", "copy.db"] + fast, stdin: "copy-pass-1\n")
        #expect(copy.status == 0, "\(copy.output)")
        #expect(directory.isPlaintextSQLite("plain.db"), "encrypt --to must leave the source alone")
        #expect(try names("copy.db", password: "copy-pass-1", settings: fast).stdout.contains("MARKER-2"))

        let inPlace = try cli(["encrypt", "plain.db"] + fast, stdin: "place-pass-1\n")
        #expect(inPlace.status == 0, "\(inPlace.output)")
        #expect(!directory.isPlaintextSQLite("plain.db"))
        #expect(!directory.fileContains("plain.db", "MARKER-1"))
        #expect(try names("plain.db", password: "place-pass-1", settings: fast).stdout.contains("MARKER-1"))
    }

    @Test func encryptRefusesAnEncryptedFileWithExit6() throws {
        try createSample()
        let result = try cli(["encrypt", "db.db"] + fast, stdin: "another-1\n")
        #expect(result.status == 6)
        #expect(result.stderr.contains("is not a plaintext SQLite database"))
    }

    @Test func decryptNeedsADestination() throws {
        try createSample()
        #expect(try cli(["decrypt", "db.db"] + fast, stdin: password + "\n").status == 2)
    }

    @Test func settingsChangesTheKDFIterations() throws {
        try createSample()
        let result = try cli(["settings", "db.db", "--set-kdf-iter", "6000"] + fast, stdin: password + "\n")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("kdf_iter=6000"))
        #expect(try names("db.db", password: password, settings: ["--kdf-iter", "6000", "--legacy-kdf"]).stdout.contains("MARKER-1"))
        #expect(try names("db.db", password: password, settings: fast).status == 3)
    }
}
