import Foundation
import SQLCipherCore

// MARK: - InPlaceRekeyMarker

/// `<db>.scm-rekeying`: written durably before a key change in place starts and removed once
/// it is committed and checked, so that an open that fails after a crash can say which key
/// opens the file (``DatabaseManagerError/keyChangeInterrupted(path:opensWith:)``).
///
/// It holds no key, only a check value of the key before and of the key after (a SHA-256 of
/// the raw key form): written only for raw and derived keys, whose 256 bits make it no
/// shortcut to guessing a password (the file itself already checks a guess at the cost of one
/// PBKDF2). While the change runs, its program holds ``OperationLock`` on the marker's path.
/// Recovery (the next open, ``DatabaseTools/recoverInterruptedOperation(at:)``) removes a
/// marker whose program died and hands it to the open, so no file of it outlives recovery.
struct InPlaceRekeyMarker: Equatable {
    static let suffix = ".scm-rekeying"
    private static let magic = "scm-rekeying 1"

    /// The check value of the key before the change and of the key after, when known.
    let previous: String?
    let new: String?

    /// The marker's path beside the database at `database`.
    static func path(for database: String) -> String { database + suffix }

    /// The first 32 hex digits of SHA-256(label, key) for a raw or derived key, `nil` for a password.
    static func checkValue(of key: SecretBytes?) -> String? {
        // A key check value, not a fingerprint: key material goes into the digest on purpose.
        guard let key, key.isRawKey, let digest = SHA256Digest() else { return nil }
        Array("scm-rekeying check\u{0}".utf8).withUnsafeBytes { digest.update($0) }
        key.withBytes { digest.update($0) }
        return String(digest.hexDigest().prefix(32))
    }

    /// Which side of the interrupted change `key` is, when it is recognised.
    func side(of key: SecretBytes?) -> KeyChangeSide? {
        guard let value = Self.checkValue(of: key) else { return nil }
        // The key given does not open the file, so the file has the other one.
        if value == new { return .previousKey }
        if value == previous { return .newKey }
        return nil
    }

    /// Writes the marker: temporary file, `fsync`, `rename`, `fsync` of the directory.
    func write(for database: String) throws(FileSystem.Failure) {
        let text = "\(Self.magic)\nprevious \(previous ?? "-")\nnew \(new ?? "-")\n"
        try FileSystem.replaceDurably(Self.path(for: database), with: Data(text.utf8))
    }

    /// The marker beside `database`, `nil` when there is none (or it is not one of ours).
    static func read(for database: String) -> InPlaceRekeyMarker? {
        guard let data = try? FileSystem.readCapped(path(for: database), limit: 511) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == 3, lines[0] == magic, lines[1].hasPrefix("previous "), lines[2].hasPrefix("new ") else {
            return InPlaceRekeyMarker(previous: nil, new: nil)
        }
        func value(_ line: String, _ prefix: String) -> String? {
            let text = String(line.dropFirst(prefix.count))
            return text == "-" ? nil : text
        }
        return InPlaceRekeyMarker(previous: value(lines[1], "previous "), new: value(lines[2], "new "))
    }

    /// `true` when a marker, its half-written temporary or its lock file is beside `database`.
    static func exists(for database: String) -> Bool {
        let marker = path(for: database)
        return [marker, marker + ".tmp", marker + OperationLock.suffix].contains { FileSystem.size(of: $0) != nil }
    }

    /// Removes the temporary and the marker, then flushes the directory.
    static func remove(for database: String) throws(FileSystem.Failure) {
        try FileSystem.removeLeftover(path(for: database) + ".tmp", leavingForeign: true)
        try FileSystem.remove(path(for: database))
        try FileSystem.sync(DatabaseFile(path: database).directory)
    }

    /// Recovery: removes the marker (its temporary and lock file) that a program left behind
    /// when it died, unless a key change of this file is running now (lock held), and returns
    /// what it said, for the open that follows to explain a refused key. SQLite's own journal
    /// or WAL settles the change itself; nothing else of it is left to recover.
    @discardableResult
    static func takeStale(for database: String) -> InPlaceRekeyMarker? {
        guard exists(for: database), let lock = try? OperationLock.acquire(for: path(for: database)) else { return nil }
        defer { lock.release() }
        let marker = read(for: database)
        try? remove(for: database)
        return marker
    }
}
