// MARK: - FormatFallback
import SQLCipherCore

/// How an open finds a file written in SQLCipher 3's format when SQLCipher 4 is linked,
/// without the app naming its settings: the configured settings are tried first; when they
/// are refused and the configuration leaves the format open (no ``CipherOptions`` field set),
/// one more fresh connection is tried with `cipher_compatibility = 3`. That costs one more key
/// derivation, only for such a file or a wrong password. The settings that opened the file are
/// then used by every connection the manager opens to it (``DatabaseManager/foundCipher``).
///
/// SQLCipher 1 and 2 files are not guessed (each guess would cost a key derivation): the
/// settings diagnosis finds them, and an open with their settings reports them as upgradable.
enum FormatFallback {
    /// SQLCipher 3's settings on SQLCipher 4: `PRAGMA cipher_compatibility = 3`.
    static let sqlcipher3 = CipherOptions(compatibility: 3)

    /// `true` when an open with `cipher` may try ``sqlcipher3`` after `cipher` was refused: it
    /// sets nothing (an app that names settings gets exactly those), and the linked SQLCipher
    /// writes another format by default and has `cipher_compatibility` (4.0.1 and later).
    static func applies(to cipher: CipherOptions) -> Bool {
        guard cipher.settings.isEmpty, let version = LinkedLibrary.cipherVersion else { return false }
        return version >= SQLCipherVersion(4, 0, 1)
    }

    /// The settings an open tries, in order: the ones an earlier open found for the file
    /// (`remembered`, kept with the cached key), the configured ones, then SQLCipher 3's when
    /// they apply. At most two: `remembered` is only ever SQLCipher 3's.
    static func attempts(configured: CipherOptions, remembered: CipherOptions?) -> [CipherOptions] {
        var list: [CipherOptions] = []
        if let remembered { list.append(remembered) }
        if !list.contains(configured) { list.append(configured) }
        if applies(to: configured), !list.contains(sqlcipher3) { list.append(sqlcipher3) }
        return list
    }

    /// `true` for the errors that mean "not with these settings": the next attempt may open it.
    static func isRefusal(_ error: any Error) -> Bool {
        switch (error as? DatabaseManagerError)?.code {
        case .incorrectPasswordOrSettings, .incorrectKeyOrSettings: true
        default: false
        }
    }
}

extension DatabaseManager {
    /// The configuration the manager's connections to the open file use: ``configuration`` with
    /// the cipher settings an open found for the file (``foundCipher``), when it found any.
    var connectionConfiguration: DatabaseConfiguration {
        var effective = configuration
        if let foundCipher { effective.cipher = foundCipher }
        return effective
    }

    /// A connection to the manager's file at `path` keyed with `key`, with the settings found
    /// for it — or, when none were found yet and the configuration leaves the format open,
    /// with SQLCipher 3's after the configured ones were refused (then remembered). For the
    /// key-slot checks that run before an open, whose key is a raw key: no key derivation.
    func connectToFile(path: String, key: SecretBytes) throws -> Connection {
        do {
            return try Unlocking.connect(path: path, mode: .readWrite, key: key, configuration: connectionConfiguration)
        } catch let error where foundCipher == nil && FormatFallback.applies(to: configuration.cipher) && FormatFallback.isRefusal(error) {
            var legacy = configuration
            legacy.cipher = FormatFallback.sqlcipher3
            guard let connection = try? Unlocking.connect(path: path, mode: .readWrite, key: key, configuration: legacy) else {
                throw error
            }
            foundCipher = FormatFallback.sqlcipher3
            return connection
        }
    }
}
