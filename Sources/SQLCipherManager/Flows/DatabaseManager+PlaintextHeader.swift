import Foundation
import SQLCipherCore
import SQLCipherEngine

// MARK: - Plaintext header

extension DatabaseManager {
    /// Converts the open database to (`true`) or from (`false`) the plaintext-header form of
    /// ``CipherOptions/plaintextHeader`` (SQLCipher 4.0+), crash-safely, keeping every row, the
    /// key (password, raw key or key slots) and the journal mode.
    ///
    /// The conversion is the export-and-install of a rekey with new settings: a copy is written
    /// in the other form, verified on a fresh connection and installed with one `rename`. The
    /// file keeps its salt: into the header form it is first written durably to `<db>.scm-salt`
    /// (the old file still carries it too), so a crash at any moment leaves a file that opens;
    /// out of it, the copy carries the salt in its first 16 bytes and the salt file is removed
    /// once the copy is installed. Each connection finds the form from the file itself. The
    /// configuration's cipher options take the new form.
    ///
    /// Events: `willRekey` (before the work, outside the lock), then `didRekey` or `didFailToRekey` (the file is
    /// then as it was, and open again).
    ///
    /// - Returns: `false` when the file already is in that form (nothing written, no event).
    /// - Throws: ``DatabaseManagerError/unsupportedOption(name:requires:linked:)`` on SQLCipher 3;
    ///   ``DatabaseManagerError/notOpen``, ``DatabaseManagerError/transactionInProgress``,
    ///   ``DatabaseManagerError/noCachedKey``; then the errors of
    ///   ``rekey(to:options:progress:)`` with new settings.
    @discardableResult
    public func convertPlaintextHeader(_ enabled: Bool, progress: ((Double) -> Void)? = nil) throws -> Bool {
        try announcing(failed: { .didFailToRekey($0) }) {
            let db = try requireDatabase()
            var cipher = connectionConfiguration.cipher
            cipher.plaintextHeader = enabled
            try cipher.validate(for: LinkedLibrary.cipherVersion(of: db.connection))
            guard Self.isInHeaderForm(db.connection.path) != enabled else {
                configuration.cipher.plaintextHeader = enabled
                return false
            }
            guard !db.isInTransaction else { throw DatabaseManagerError.transactionInProgress }
            guard let key = cachedKey else { throw DatabaseManagerError.noCachedKey }
            try announce(.willRekey)
            try replaceThroughExport(
                .rekey, key: key, cipher: cipher, progress: progress, failed: { .didFailToRekey($0) }, siblingsHear: .didRekey)
            notify(.didRekey)
            return true
        }
    }

    // MARK: - The salt in the flows

    /// `true` when the file at `path` is in the plaintext-header form: SQLite's header at its
    /// start and a salt file beside it.
    static func isInHeaderForm(_ path: String) -> Bool { HeaderSaltFile.isHeaderForm(path) }

    /// The salt an export's copy of `path` is written with when the file or the copy is in the
    /// header form: the file's own, so the key derived for it stays the same. Into the header
    /// form the salt file is written first, durably. `nil` for two files in the usual form.
    ///
    /// A key that names a salt of its own (`x'<key><salt>'`, as key slots bind the file) must
    /// name that one: the salt file cannot change together with the file, so a change of the
    /// salt (to or from key slots) is refused before anything is written.
    static func headerSaltForCopy(of path: String, cipher: CipherOptions, key: SecretBytes) throws -> [UInt8]? {
        let inHeaderForm = isInHeaderForm(path)
        guard cipher.plaintextHeader || inHeaderForm else { return nil }
        guard let salt = inHeaderForm ? try HeaderSaltFile.read(for: path) : KeyDerivation.salt(ofFileAt: path) else {
            throw DatabaseManagerError.verificationFailed(path: path, reason: "its salt (the first 16 bytes) cannot be read")
        }
        if let own = embeddedSalt(of: key), own != salt {
            throw DatabaseManagerError.invalidOption(
                name: "plaintextHeader",
                reason: "this change gives the file a new salt (key slots bind it), which the plaintext-header form "
                    + "cannot do crash-safely; convert with convertPlaintextHeader(false) first, then back")
        }
        if !inHeaderForm {
            do { try HeaderSaltFile.write(salt, for: path) } catch { throw DatabaseManagerError(diagnosing: error, path: path) }
        }
        return salt
    }

    /// The salt a raw key names (`x'<64 hex key><32 hex salt>'`), `nil` for a password or a bare key.
    static func embeddedSalt(of key: SecretBytes) -> [UInt8]? {
        let length = 3 + 2 * (32 + KeyDerivation.saltLength)
        guard key.isRawKey, key.count == length else { return nil }
        return key.withBytes { bytes -> [UInt8]? in
            let hex = Array(bytes[(2 + 64)..<(length - 1)])
            var salt: [UInt8] = []
            for index in stride(from: 0, to: hex.count, by: 2) {
                guard let byte = UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
                salt.append(byte)
            }
            return salt
        }
    }

    /// After an export's install (or its failure): a file not in the header form (the usual
    /// form, a plaintext file, none) needs no salt file, so one left beside it goes (best
    /// effort: the form is read from the file).
    static func settleHeaderSalt(of path: String) {
        guard HeaderSaltFile.exists(for: path), !isInHeaderForm(path), FileSystem.size(of: path) != 0 else { return }
        try? HeaderSaltFile.remove(for: path)
    }

    /// A new file in the header form (`cipher.plaintextHeader`): a fresh salt, stored durably
    /// beside `path` before the file exists, so no file in that form is ever without it.
    /// A raw key that names its salt (a key-slot database) keeps that one.
    static func headerSaltForNewFile(at path: String, cipher: CipherOptions, key: SecretBytes) throws -> [UInt8]? {
        guard cipher.plaintextHeader else { return nil }
        if let version = LinkedLibrary.cipherVersion { try cipher.validate(for: version) }
        let salt = embeddedSalt(of: key) ?? KeyDerivation.newSalt()
        do {
            try HeaderSaltFile.write(salt, for: path)
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: path)
        }
        return salt
    }

    /// A backup in the header form: as a new file, its salt beside the backup.
    static func headerSaltForBackup(at target: String, cipher: CipherOptions, key: SecretBytes) throws -> [UInt8]? {
        try headerSaltForNewFile(at: target, cipher: cipher, key: key)
    }

    /// The encryption check of a new file: no SQLite header at its start, or, in the header
    /// form, ciphertext past its first 32 bytes (``HeaderSaltFile/hasPlaintextHeaderForm(_:)``).
    static func isEncrypted(_ path: String, headerSalt: [UInt8]?) -> Bool {
        !DatabaseFile(path: path).isPlaintextSQLite || (headerSalt != nil && HeaderSaltFile.hasPlaintextHeaderForm(path))
    }
}
