import Foundation
import SQLCipherCore

// MARK: - CipherSettingsDiagnosis

/// What ``DatabaseManager/diagnoseCipherSettings(password:alsoTrying:)-(String,_)`` found.
public enum CipherSettingsDiagnosis: Sendable, Equatable {
    /// The password is right: the file opens with these settings instead of the configured ones.
    case opens(with: CipherSettingsCandidate)
    /// No known set opens the file with this password: the password is wrong, or the file was
    /// written with settings outside the ladder (or is not an SQLCipher database). `tried` is
    /// every set that was tried, in order.
    case noKnownSettingsOpen(tried: [CipherSettingsCandidate])
}

// MARK: - The settings ladder

extension DatabaseManager {
    /// For a password that failed to open the database: tries `extra`, then every set of
    /// ``DatabaseTools/knownCipherSettings`` (skipping any that opens files the same way as the configured
    /// ``DatabaseConfiguration/cipher``, which already failed), each on a fresh read-only
    /// connection, and reports the first that opens the file — or that none does.
    ///
    /// Each try opens the file read-only and `immutable` (a `file:` URI with `immutable=1`),
    /// gives the key with `sqlite3_key`, runs the set's `PRAGMA kdf_iter`, `cipher_page_size`,
    /// `cipher_use_hmac` or `cipher_compatibility`, and reads `sqlite_master`. Nothing is
    /// written: no `-journal`, `-wal` or `-shm` is created, the file's bytes and times stay as
    /// they were. A WAL-mode file counts as opened when its first page passed the HMAC check.
    ///
    /// Every try pays the PBKDF2 cost of its `kdf_iter` (BENCHMARKS.md gives the figure), so
    /// this runs only when asked, never inside ``open(password:)``.
    ///
    /// - Throws: ``DatabaseManagerError/notConfigured``, ``DatabaseManagerError/sqlcipherNotLinked``,
    ///   ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)`` for an empty
    ///   password (wrong with every set, so none is tried), and the file problems ``open(password:)`` reports before a key is tried
    ///   (``DatabaseManagerError/fileNotFound(path:)``, ``DatabaseManagerError/plaintextDatabase(path:)``…).
    public func diagnoseCipherSettings(
        password: String, alsoTrying extra: [CipherSettingsCandidate] = []
    ) throws -> CipherSettingsDiagnosis {
        try diagnoseCipherSettings(password: SecretBytes(password: password), alsoTrying: extra)
    }

    /// `diagnoseCipherSettings(password:alsoTrying:)` with the password's UTF-8
    /// bytes in ``SecretBytes`` (an ASCII password is never copied into a `String`).
    public func diagnoseCipherSettings(
        password: SecretBytes, alsoTrying extra: [CipherSettingsCandidate] = []
    ) throws -> CipherSettingsDiagnosis {
        let (path, configured) = try locked { (try requirePath(), configuration) }
        guard let version = LinkedLibrary.cipherVersion else { throw DatabaseManagerError.sqlcipherNotLinked }
        if let fileError = DatabaseManagerError(problemBeforeUnlockAt: path) { throw fileError }
        // SQLCipher reads an empty key as "no encryption" (3.x) or refuses it (4.5.5+).
        if password.count == 0 { try locked { try refuseEmptyPassword() } }
        let key = password.normalizedPassword()
        var seen: Set<CipherOptions> = [configured.cipher.resolved(for: version)]
        var tried: [CipherSettingsCandidate] = []
        for candidate in extra + CipherSettingsCandidate.known(for: version) {
            guard (try? candidate.options.validate(for: version)) != nil,
                seen.insert(candidate.options.resolved(for: version)).inserted
            else { continue }
            tried.append(candidate)
            if try settingsOpen(path: path, key: key, with: candidate.options, version: version) {
                return .opens(with: candidate)
            }
        }
        return .noKnownSettingsOpen(tried: tried)
    }
}

/// `true` when `key` with `options` decrypts the file at `path` (a fresh immutable,
/// read-only connection, closed before returning).
private func settingsOpen(path: String, key: SecretBytes, with options: CipherOptions, version: SQLCipherVersion) throws -> Bool {
    let connection: Connection
    do {
        connection = try Connection(path: path, mode: .readOnlyImmutable)
    } catch {
        throw DatabaseManagerError(diagnosing: error, path: path)
    }
    defer { connection.close() }
    do {
        try key.withBytes { try connection.key($0) }
        for pragma in options.pragmas() { try connection.executeScript(pragma) }
        try connection.executeScript("SELECT count(*) FROM sqlite_master")
        return true
    } catch let error as SQLiteError where error.extendedCode.primary == .notADatabase {
        return false
    } catch let error as SQLiteError where error.extendedCode.primary == .cantOpen {
        // An immutable connection cannot open a WAL-mode file's -wal. SQLite looks at the
        // journal mode only after page 1 decrypted; with a page HMAC that proves the key.
        return options.resolved(for: version).usesHMAC == true
    } catch {
        throw DatabaseManagerError(diagnosing: error, path: path)
    }
}
