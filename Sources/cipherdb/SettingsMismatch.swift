import Foundation
import SQLCipherManager

// MARK: - SettingsMismatch

/// A password that did not open the database, with what the library's settings diagnosis
/// (`DatabaseManager.diagnoseCipherSettings`) found: either the set that opens it with this
/// password, or that none does. Reported with exit 3 and the command line to use.
struct SettingsMismatch: Error {
    let path: String
    let diagnosis: CipherSettingsDiagnosis

    /// Runs the diagnosis for `password`, which just failed to open `manager`'s database, trying
    /// the settings `cipherdb settings` recorded beside it first.
    init(path: String, manager: DatabaseManager, password: SecretBytes) throws {
        self.path = path
        let recorded = SettingsRecord(databasePath: path).read().map {
            CipherSettingsCandidate(name: "the settings `cipherdb settings` recorded", options: $0)
        }
        diagnosis = try manager.diagnoseCipherSettings(password: password, alsoTrying: recorded)
    }

    /// The set that opens the file, when the password is right.
    var found: CipherSettingsCandidate? {
        if case .opens(let candidate) = diagnosis { candidate } else { nil }
    }

    /// One line for `info`: what the diagnosis found.
    var summary: String {
        guard let found else { return "no known cipher settings open the file with this password" }
        return "the password is right; the file uses \(found.summary) (\(found.name))"
    }

    var message: String {
        guard let found else {
            let count: Int
            if case .noKnownSettingsOpen(let tried) = diagnosis { count = tried.count } else { count = 0 }
            return "Incorrect password for \(path): it opens neither with the settings given nor with the \(count) other "
                + "known sets (SQLCipher 1-\(DatabaseTools.linkedSQLCipherVersion?.major ?? 3) formats, pages of 1024-16384 bytes). "
                + "Try again with the right password; a file written with settings of its own needs them "
                + "(--kdf-iter N, --page-size N, --no-hmac): SQLCipher does not store them in the file, and "
                + "`cipherdb settings` records the ones it sets beside it, in \(SettingsRecord(databasePath: path).path)."
        }
        let flags = Self.flags(found.options).joined(separator: " ")
        guard !flags.isEmpty else {
            return "The password is right; \(path) uses the linked SQLCipher's default settings: "
                + "run the command again without --kdf-iter, --page-size, --no-hmac, --legacy-kdf or --compatibility."
        }
        return "The password is right; \(path) uses \(found.summary) (\(found.name)): add `\(flags)` "
            + "(in place of any other --kdf-iter, --page-size, --no-hmac, --legacy-kdf), or convert it with "
            + "`cipherdb settings \(path) \(flags) --set-defaults`."
    }

    /// The cipherdb options that give `options` (the ones that differ from SQLCipher's defaults).
    static func flags(_ options: CipherOptions) -> [String] {
        var flags: [String] = []
        if let compatibility = options.compatibility { flags += [Option.compatibility.rawValue, "\(compatibility)"] }
        if let kdfIterations = options.kdfIterations {
            flags += [Option.kdfIter.rawValue, "\(kdfIterations)"]
            if kdfIterations < CipherOptions.minimumKDFIterations { flags.append(Option.legacyKDF.rawValue) }
        }
        if let pageSize = options.pageSize { flags += [Option.pageSize.rawValue, "\(pageSize)"] }
        if options.usesHMAC == false { flags.append(Option.noHMAC.rawValue) }
        return flags
    }
}
