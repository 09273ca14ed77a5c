import Foundation

// MARK: - HeaderSaltFile

/// The salt of a database whose first 32 bytes are plaintext (`cipher_plaintext_header_size`):
/// SQLCipher no longer finds it at the start of the file, so it is kept beside the database as
/// `<db>.scm-salt`, one line of 32 hex digits, written with ``FileSystem/replaceDurably(_:with:)``.
///
/// A database in that form starts with SQLite's plaintext header; the salt file beside it is
/// what tells it from a plaintext SQLite file (``DatabaseFile/kind()``).
package enum HeaderSaltFile {
    /// The salt file's suffix: `<db>.scm-salt`.
    package static let suffix = ".scm-salt"
    /// The bytes SQLCipher leaves plaintext: SQLite's 32-byte header start, the size iOS needs.
    static let plaintextHeaderSize = 32

    /// The salt file of the database at `path` (beside the file a symbolic link names).
    package static func path(for database: String) -> String { FileSystem.resolvedPath(database) + suffix }

    /// `true` when the database at `path` has a salt file beside it.
    package static func exists(for database: String) -> Bool { FileSystem.size(of: path(for: database)) != nil }

    /// Why a database's salt file cannot be used; the manager says it as
    /// ``DatabaseManagerError/headerSaltUnusable(path:saltFile:problem:)``.
    package struct Unusable: Error, Equatable {
        /// The database the salt belongs to.
        package let database: String
        /// Its salt file.
        package let saltFile: String
        /// What is wrong with it.
        package let problem: HeaderSaltProblem
    }

    /// The stored salt; a missing or unreadable salt file is ``Unusable``, naming it.
    package static func read(for database: String) throws(Unusable) -> [UInt8] {
        let file = path(for: database)
        func unusable(_ problem: HeaderSaltProblem) -> Unusable {
            Unusable(database: database, saltFile: file, problem: problem)
        }
        guard FileSystem.size(of: file) != nil else { throw unusable(.missing) }
        guard let data = try? FileSystem.readCapped(file, limit: 256) else {
            throw unusable(.damaged(reason: "it cannot be read"))
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let salt = decode(text) else { throw unusable(.damaged(reason: "it does not hold 32 hex digits")) }
        return salt
    }

    /// Stores `salt` for the database at `path`, durably (old content or new after a crash).
    package static func write(_ salt: [UInt8], for database: String) throws(FileSystem.Failure) {
        let text = salt.map { String(format: "%02x", $0) }.joined() + "\n"
        try FileSystem.replaceDurably(path(for: database), with: Data(text.utf8))
    }

    /// Removes the salt file of the database at `path`, durably; nothing there is not an error.
    package static func remove(for database: String) throws(FileSystem.Failure) {
        try FileSystem.removeDurably(path(for: database))
    }

    /// `PRAGMA <schema>.cipher_salt = "x'…'"`: the salt is not secret, only its hex goes in.
    package static func pragma(_ salt: [UInt8], schema: String = "main") -> String {
        "PRAGMA \(schema).cipher_salt = \"x'\(salt.map { String(format: "%02x", $0) }.joined())'\""
    }

    /// `PRAGMA <schema>.cipher_plaintext_header_size = 32`.
    package static func sizePragma(schema: String = "main") -> String {
        "PRAGMA \(schema).cipher_plaintext_header_size = \(plaintextHeaderSize)"
    }

    /// `true` when the database at `path` is in the plaintext-header form and has its salt file.
    package static func isHeaderForm(_ database: String) -> Bool {
        hasPlaintextHeaderForm(database) && exists(for: database)
    }

    /// `true` when the file starts with a sound SQLite header (its first 32 bytes) but is
    /// SQLCipher's past them: a page reserve (IV and HMAC), and no plausible schema format
    /// (offset 44) and text encoding (offset 56), which every plaintext SQLite file has. With
    /// or without its salt file.
    package static func hasPlaintextHeaderForm(_ path: String) -> Bool {
        let file = DatabaseFile(path: path)
        guard let header = file.header(count: 100), header.count == 100,
            Array(header.prefix(16)) == DatabaseFile.plaintextHeader, header[20] > 0, file.plaintextHeaderProblem == nil
        else { return false }
        let plaintext =
            header[44...46].allSatisfy { $0 == 0 } && header[47] <= 4 && header[56...58].allSatisfy { $0 == 0 } && header[59] <= 3
        return !plaintext
    }

    private static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 2 * KeyDerivation.saltLength else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
