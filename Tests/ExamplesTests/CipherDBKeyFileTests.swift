import Foundation
import TestSupport
import Testing

/// `cipherdb --key-file PATH`: a raw 32-byte key (binary or 64 hex digits) for every command
/// that takes a password, refused unread when others can read it.
@Suite(.ownThread) struct CipherDBKeyFileTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    private func randomKey() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    @Test func createExecVerifyInfoRekeyAndDecryptWithKeyFiles() throws {
        let key = randomKey()
        try directory.writeSecret("db.key", key)
        try directory.writeSecret("hex.key", Data((key.map { String(format: "%02x", $0) }.joined() + "\n").utf8))
        #expect(try cli(["create", "db.db", "--key-file", "db.key"]).status == 0)
        #expect(try cli(["exec", "db.db", "CREATE TABLE t(x); INSERT INTO t VALUES (42)", "--key-file", "db.key"]).status == 0)
        let read = try cli(["exec", "db.db", "SELECT x FROM t", "--key-file", "hex.key"])
        #expect(read.status == 0 && read.stdout.contains("42"), "\(read.output)")
        #expect(try cli(["verify", "db.db", "--key-file", "db.key"]).status == 0)
        #expect(try cli(["info", "db.db", "--key-file", "db.key"]).stdout.contains("t: 1 row"))
        // A password does not open it.
        #expect(try cli(["verify", "db.db"], stdin: "not-the-key\n").status == 3)

        try directory.writeSecret("new.key", randomKey())
        let rekey = try cli(["rekey", "db.db", "--key-file", "db.key", "--new-key-file", "new.key"])
        #expect(rekey.status == 0, "\(rekey.output)")
        #expect(try cli(["verify", "db.db", "--key-file", "db.key"]).status == 3)
        #expect(try cli(["verify", "db.db", "--key-file", "new.key"]).status == 0)
        let decrypt = try cli(["decrypt", "db.db", "--to", "plain.db", "--key-file", "new.key"])
        #expect(decrypt.status == 0, "\(decrypt.output)")
        #expect(directory.isPlaintextSQLite("plain.db"))
        let encrypt = try cli(["encrypt", "plain.db", "--key-file", "db.key"])
        #expect(encrypt.status == 0, "\(encrypt.output)")
        #expect(try cli(["exec", "plain.db", "SELECT x FROM t", "--key-file", "db.key"]).stdout.contains("42"))
        let hex = key.map { String(format: "%02x", $0) }.joined()
        #expect(!rekey.output.lowercased().contains(hex) && !read.output.lowercased().contains(hex))
    }

    @Test func anUnsafeOrMalformedKeyFileIsRefusedAndNothingIsCreated() throws {
        try directory.writeSecret("open.key", randomKey(), mode: 0o644)
        let open = try cli(["create", "db.db", "--key-file", "open.key"])
        #expect(open.status == 1)
        #expect(open.stderr.contains("accessible to other users"), "\(open.stderr)")
        try directory.writeSecret("short.key", Data(count: 31))
        let short = try cli(["create", "db.db", "--key-file", "short.key"])
        #expect(short.status == 1)
        #expect(short.stderr.contains("malformed"), "\(short.stderr)")
        #expect(!directory.exists("db.db"))
        let both = try cli(["create", "db.db", "--key-file", "short.key", "--password-file", "short.key"])
        #expect(both.status == 2)
    }
}
