import Foundation
import SQLCipherManager

// MARK: - SettingsRecord

/// The settings `cipherdb settings` wrote, kept beside the database as `DB.cipherdb-settings`
/// (`kdf_iter=6000` lines: no key material, only what SQLCipher's pragmas take), so a later
/// command without the same options is told what to add. Only a hint: the diagnosis opens the
/// file with it before saying anything, so a stale record is harmless.
struct SettingsRecord {
    let path: String

    init(databasePath: String) { path = databasePath + ".cipherdb-settings" }

    func read() -> CipherOptions? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 4096 else { return nil }
        var options = CipherOptions()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "kdf_iter": options.kdfIterations = Int(parts[1])
            case "cipher_page_size": options.pageSize = Int(parts[1])
            case "cipher_use_hmac": options.usesHMAC = parts[1] == "ON"
            default: continue
            }
        }
        options.allowsLegacyKDFIterations = (options.kdfIterations ?? .max) < CipherOptions.minimumKDFIterations
        return options == CipherOptions() ? nil : options
    }

    /// Records `options`, or removes the record when they are all SQLCipher's defaults.
    func write(_ options: CipherOptions) throws {
        guard options.kdfIterations != nil || options.pageSize != nil || options.usesHMAC != nil else {
            try? FileManager.default.removeItem(atPath: path)
            return
        }
        var lines: [String] = []
        if let kdfIterations = options.kdfIterations { lines.append("kdf_iter=\(kdfIterations)") }
        if let pageSize = options.pageSize { lines.append("cipher_page_size=\(pageSize)") }
        if let usesHMAC = options.usesHMAC { lines.append("cipher_use_hmac=\(usesHMAC ? "ON" : "OFF")") }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
