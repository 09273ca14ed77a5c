import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherKeys
@testable import SQLCipherManager

/// After `close()`, no copy of the password, the key or the key as hexadecimal text (either
/// case) is left in the process's writable memory: the library kept its copies in
/// ``SecretBytes`` and zeroed them, and SQLCipher zeroed its own when every connection (the
/// writer and the WAL readers) was closed.
///
/// The test's own copies are in memory it zeroes or leaves out of the search: the password is
/// made at run time (a literal may be copied by the runtime) in ``SecretBytes``, its `String`
/// is zeroed in place once the library has it, and no secret goes through `#expect` or
/// `#require`, which copy the values they show.
@Suite(.enabled(if: OwnMemory.isSearchable, "needs /proc/self/mem and a build without a sanitizer"), .ownThread, .serialized)
struct KeyMemoryAfterCloseTests {
    /// A password made at run time: its bytes (the needle) and a `String` of them for the
    /// `String` API, zeroed by ``wipeText()``.
    final class Password {
        let bytes: SecretBytes
        private(set) var text: String

        init() {
            let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789_!".utf8)
            var generator = SystemRandomNumberGenerator()
            bytes = SecretBytes(zeroedCount: 28)
            bytes.withMutableBytes { out in
                for index in out.indices { out[index] = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            }
            // Longer than 15 bytes: a native string in one heap buffer, which wipeText() zeroes.
            text = bytes.withBytes { String(decoding: $0, as: UTF8.self) }
        }

        /// Zeroes the `String`'s own buffer (the test's copy; the library must keep none).
        func wipeText() {
            text.withUTF8 { SecretBytes.wipe(UnsafeMutableRawBufferPointer(mutating: UnsafeRawBufferPointer($0))) }
        }
    }

    /// A copy, in memory the test owns, of a secret the library holds.
    private func copy(_ secret: SecretBytes) -> SecretBytes {
        let copy = SecretBytes(zeroedCount: secret.count)
        secret.withBytes { source in copy.withMutableBytes { $0.copyMemory(from: source) } }
        return copy
    }

    /// The needles for a raw key in SQLCipher's `x'<hex>…'` form: its bytes and its hex text.
    private func needles(rawKeyText: SecretBytes?) -> [(name: String, bytes: SecretBytes)] {
        guard let rawKeyText else {
            Issue.record("the manager holds no key while open")
            return []
        }
        let key = copy(rawKeyText).keyBytesOfRawKeyText()
        return [
            ("the key", key), ("the key in lowercase hex", key.hexDigits(uppercase: false)),
            ("the key in uppercase hex", key.hexDigits(uppercase: true)),
        ]
    }

    /// Searches memory for the needles, and for a marker that must be found (so that a search
    /// that reads nothing cannot pass).
    private func expectGone(_ needles: [(name: String, bytes: SecretBytes)], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let marker = Array("memory-scan-marker-\(UUID().uuidString)".utf8)
        let markerNeedle = SecretBytes(copying: marker)
        let result = try withExtendedLifetime(marker) { try OwnMemory.search(for: needles + [("marker", markerNeedle)]) }
        #expect(result.found["marker"] ?? 0 >= 1, "the search misses the heap", sourceLocation: sourceLocation)
        #expect(result.bytesRead > 1_000_000, "too little memory was read: \(result.bytesRead)", sourceLocation: sourceLocation)
        let left = result.found.filter { $0.key != "marker" }
        #expect(left.isEmpty, "copies left in memory after close(): \(left)", sourceLocation: sourceLocation)
    }

    @Test func aPasswordDatabase() throws {
        let dir = TemporaryDirectory()
        let password = Password()
        let manager = dir.manager { $0.journalMode = .wal }
        try manager.create(password: password.text)
        try manager.execute("CREATE TABLE t(x)")
        manager.close()
        try manager.open(password: password.text)
        password.wipeText()
        try manager.execute("INSERT INTO t VALUES (1)")
        let count = try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM t") }
        #expect(count == 1)
        // The key derived from the password, which every connection was keyed with.
        let needles = [("the password", password.bytes)] + needles(rawKeyText: manager.derivedKey?.rawKey)
        manager.close()
        try withExtendedLifetime(manager) { try expectGone(needles) }
    }

    @Test func aKeySlotDatabase() throws {
        let dir = TemporaryDirectory()
        let password = Password()
        let manager = dir.manager {
            $0.keySlots = .fast
            $0.journalMode = .wal
        }
        try manager.create(.password(password.text), keySlots: true)
        try manager.execute("CREATE TABLE t(x)")
        manager.close()
        try manager.open(password: password.text)
        password.wipeText()
        let count = try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM t") }
        #expect(count == 0)
        // The data key, unsealed from the slot.
        let needles = [("the password", password.bytes)] + needles(rawKeyText: manager.cachedKey)
        manager.close()
        try withExtendedLifetime(manager) { try expectGone(needles) }
    }

    @Test func aKeyFromAFileKeyStore() throws {
        let dir = TemporaryDirectory()
        let store = FileKeyStore(directory: dir.url.appendingPathComponent("keys"))
        let manager = dir.manager { $0.journalMode = .wal }
        let created = try manager.openOrCreate(keyStore: store, identifier: "scan")
        #expect(created == .createdWithNewKey)
        try manager.execute("CREATE TABLE t(x)")
        manager.close()
        let opened = try manager.openOrCreate(keyStore: store, identifier: "scan")
        #expect(opened == .openedExisting)
        let count = try manager.readSync { try $0.scalar(Int.self, "SELECT count(*) FROM t") }
        #expect(count == 0)
        let needles = needles(rawKeyText: manager.cachedKey)
        manager.close()
        try withExtendedLifetime(manager) { try expectGone(needles) }
    }
}
