import Foundation
import TestSupport
import Testing

/// `cipherdb plaintext-header DB on|off` on SQLCipher 4: the file starts with SQLite's header,
/// its salt is kept in `DB.scm-salt`, the `sqlcipher` shell opens it with that salt, and the
/// power-loss explorer finds no bad state in either conversion. On SQLCipher 3 the command is
/// the typed error that names SQLCipher 4, and nothing is written.
@Suite(.serialized, .ownThread) struct CipherDBPlaintextHeaderTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    static let magic = Data("SQLite format 3".utf8) + Data([0])

    func run(_ arguments: [String]) throws -> ProgramResult {
        try cli(arguments + fast + ["--password-env", "DBPW"], environment: ["DBPW": password])
    }

    /// The rows of `db.db` through the `sqlcipher` shell, keyed with the salt file's salt.
    func shellRows() throws -> String {
        let salt = String(decoding: directory.bytes("db.db.scm-salt"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let script = [
            ".output /dev/null", "PRAGMA key = '\(password)';", "PRAGMA kdf_iter = 4000;",
            "PRAGMA cipher_plaintext_header_size = 32;", "PRAGMA cipher_salt = \"x'\(salt)'\";", ".output stdout",
            "SELECT name FROM item ORDER BY id;",
        ].joined(separator: "\n")
        let shell = ChildProcess()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = ["sqlcipher", "-batch", directory.path("db.db")]
        let input = Pipe()
        let output = Pipe()
        shell.standardInput = input
        shell.standardOutput = output
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        input.fileHandleForWriting.write(Data((script + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func convertsToTheHeaderFormAndBack() throws {
        try cli.createDatabase("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item(name) VALUES ('a'), ('b')")
        let before = directory.bytes("db.db")
        let on = try run(["plaintext-header", "db.db", "on"])
        guard LinkedFormat.major >= 4 else {
            #expect(on.status != 0)
            #expect(on.stderr.contains("plaintextHeader needs SQLCipher 4.0.0 or later"), "\(on.output)")
            #expect(directory.bytes("db.db") == before && !directory.exists("db.db.scm-salt"))
            return
        }
        #expect(on.status == 0, "\(on.output)")
        #expect(directory.bytes("db.db").prefix(16) == Self.magic)
        #expect(directory.exists("db.db.scm-salt"))
        #expect(try run(["exec", "db.db", "SELECT name FROM item ORDER BY id"]).stdout == "name\na\nb\n")
        #expect(try shellRows() == "a\nb\n")
        let info = try run(["info", "db.db"])
        #expect(info.status == 0 && info.stdout.contains("item: 2 rows"), "\(info.output)")
        // Without its salt file the database does not open, and the message names that file.
        try FileManager.default.moveItem(atPath: directory.path("db.db.scm-salt"), toPath: directory.path("kept-salt"))
        let missing = try run(["exec", "db.db", "SELECT count(*) FROM item"])
        #expect(missing.status == 5 && missing.stderr.contains("db.db.scm-salt, which is missing"), "\(missing.output)")
        try FileManager.default.moveItem(atPath: directory.path("kept-salt"), toPath: directory.path("db.db.scm-salt"))
        let wrong = try cli(["exec", "db.db", "SELECT 1"] + fast + ["--password-env", "DBPW"], environment: ["DBPW": "not-it"])
        #expect(wrong.status == 3 && wrong.stderr.contains("db.db.scm-salt"), "\(wrong.output)")
        let off = try run(["plaintext-header", "db.db", "off"])
        #expect(off.status == 0, "\(off.output)")
        #expect(directory.bytes("db.db").prefix(16) != Self.magic && !directory.exists("db.db.scm-salt"))
        #expect(try run(["exec", "db.db", "SELECT name FROM item ORDER BY id"]).stdout == "name\na\nb\n")
    }

    /// The conversion's cells of the power-loss suite (``PowerLossTests``): SQLCipher 4 only.
    static let cells = [
        "header-on/delete", "header-on/wal", "header-on/wal-pending",
        "header-off/delete", "header-off/wal", "header-off/wal-pending",
    ]

    @Test(arguments: PowerLossTests.sampled(cells, label: "power-loss cells, plaintext header"))
    func crashStatesRecover(_ cell: String) throws {
        // On SQLCipher 3 the conversion is refused before any write (the test above).
        guard LinkedFormat.major >= 4 else { return }
        try PowerLossTests.explore(cell)
    }
}
