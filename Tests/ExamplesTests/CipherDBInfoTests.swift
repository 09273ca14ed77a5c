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
        #expect(
            stale.stdout.contains("pages: \(pages) (from the file size; the header claims 1000, a count SQLite ignores"),
            "\(stale.stdout)")
    }

    /// A header that claims 4,294,967,295 pages: with a change counter that does not match
    /// offset 92, SQLite (the sqlcipher shell, as a plain SQLite) counts the pages from the file
    /// size, and so does `info`; with one that matches, the header is wrong — SQLite 3.46 refuses
    /// the file as malformed, 3.15 finds every page past the file never used — and `info` shows
    /// the pages the file holds and says so.
    @Test(arguments: [false, true])
    func aHeaderThatClaimsFourBillionPages(_ trusted: Bool) throws {
        try PlainDatabase.write(cli)
        var bytes = directory.bytes("plain.db")
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pages = bytes.count / pageSize
        bytes.replaceSubrange(28..<32, with: [0xFF, 0xFF, 0xFF, 0xFF])
        bytes.replaceSubrange(92..<96, with: bytes[24..<28])
        if !trusted { bytes[95] = bytes[27] &+ 1 }
        try bytes.write(to: directory.url.appendingPathComponent("plain.db"))
        let info = try cli(["info", "plain.db"])
        #expect(info.status == 0, "\(info.output)")
        let reason =
            trusted
            ? "more than the file holds: the file is damaged or truncated)"
            : "a count SQLite ignores: its change counter differs from its version-valid-for number)"
        #expect(
            info.stdout.contains("pages: \(pages) (from the file size; the header claims 4294967295, \(reason)\n"),
            "\(info.stdout)")
        #expect(!info.stdout.contains("pages: 4294967295"), "\(info.stdout)")
        let path = directory.url.appendingPathComponent("plain.db").path
        if trusted {
            let shell = try SQLCipherShell.run(SQLCipherShell.require(), path, "PRAGMA integrity_check;\n")
            let refused = shell.status != 0 && shell.stderr.contains("malformed")
            #expect(refused || shell.stdout.contains("Page \(pages + 1) is never used"), "\(shell.stdout)\(shell.stderr)")
        } else {
            let shell = try SQLCipherShell.run(SQLCipherShell.require(), path, "PRAGMA page_count;\n")
            #expect(shell.status == 0 && shell.stdout == "\(pages)\n", "\(shell.stdout)\(shell.stderr)")
        }
    }
}
