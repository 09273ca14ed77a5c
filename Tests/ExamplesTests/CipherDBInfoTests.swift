import Foundation
import TestSupport
import Testing

/// `info` reports the page count SQLite uses, and says when the header's
/// count is one SQLite ignores.
@Suite(.ownThread) struct CipherDBInfoTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    @Test func aStaleHeaderPageCountIsNotRepeated() throws {
        try PlainDatabase.write(cli)
        var bytes = directory.bytes("plain.db")
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pages = bytes.count / pageSize
        let fresh = try cli(["info", "plain.db"])
        #expect(fresh.stdout.contains("pages: \(pages)\n") && !fresh.stdout.contains("header page count"), "\(fresh.stdout)")
        // 1000 pages at offset 28, and a version-valid-for number (92) that no longer matches
        // the change counter (24), as a program other than SQLite 3.7+ leaves it.
        bytes.replaceSubrange(28..<32, with: [0, 0, 0x03, 0xE8])
        bytes[95] = bytes[27] &+ 1
        try bytes.write(to: directory.url.appendingPathComponent("plain.db"))
        let stale = try cli(["info", "plain.db"])
        #expect(stale.status == 0, "\(stale.output)")
        #expect(stale.stdout.contains("pages: \(pages)\n"), "\(stale.stdout)")
        #expect(stale.stdout.contains("header page count: 1000 (stale: SQLite ignores it"), "\(stale.stdout)")
    }
}
