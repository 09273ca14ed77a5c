import Foundation
import SQLCipherManager

// MARK: - upgrade

/// SQLCipher 2's format with the linked library: `cipher_compatibility = 2` on SQLCipher 4,
/// 4,000 PBKDF2-HMAC-SHA1 iterations on 3.x (its other defaults are SQLCipher 2's).
let sqlcipher2Options: CipherOptions =
    (DatabaseTools.linkedSQLCipherVersion?.major ?? 3) >= 4
    ? CipherOptions(compatibility: 2, allowsLegacyKDFIterations: true)
    : CipherOptions(kdfIterations: 4000, allowsLegacyKDFIterations: true)

/// `upgrade`: opens test.db (SQLCipher 2's format, "old-secret") with its settings and rewrites
/// it in the linked library's format with `upgradeFormat()`.
func runUpgradeFlow(database: URL, ready: () -> Void) throws {
    let manager = DatabaseManager(url: database, configuration: DatabaseConfiguration(cipher: sqlcipher2Options))
    try manager.open(password: "old-secret")
    ready()
    guard case .upgraded = try manager.upgradeFormat() else {
        FileHandle.standardError.write(Data("upgradeFormat wrote nothing\n".utf8))
        exit(1)
    }
    manager.close()
}
