import Foundation
import SQLCipherManager

// MARK: - SettingsRecord

/// The settings `cipherdb settings` wrote, kept beside the database as `DB.cipherdb-settings`
/// (`kdf_iter=6000` lines: no key material, only what SQLCipher's pragmas take), so a later
/// command without the same options is told what to add. Only a hint: the diagnosis opens the
/// file with each recorded set before saying anything, so a stale record is harmless.
///
/// Written like the library's own files (``DatabaseTools/writeFileDurably(_:to:)``: a
/// temporary `DB.cipherdb-settings.tmp`, `fsync`, `rename`, `fsync` of the directory), and written
/// *before* the re-encryption with both the new settings and the ones the file had
/// (`previous.` lines), so that whatever a crash leaves, the record names the settings that
/// open the file; after the change it is rewritten with the new settings only.
struct SettingsRecord {
    let path: String

    /// A record is a few lines; a larger file is not one cipherdb wrote (checked before reading).
    static let sizeLimit = 4095

    init(databasePath: String) { path = databasePath + ".cipherdb-settings" }

    /// The leftover of a write a kill interrupted.
    var temporaryPath: String { path + ".tmp" }

    /// The recorded settings: the current set first, then the previous one while a change runs
    /// (or was interrupted). Empty when there is no record.
    func read() -> [CipherOptions] {
        let url = URL(fileURLWithPath: path)
        guard let data = (try? DatabaseTools.readSmallFile(at: url, limit: Self.sizeLimit)) ?? nil else { return [] }
        var current = CipherOptions()
        var previous = CipherOptions()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            var parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let isPrevious = parts[0].hasPrefix("previous.")
            if isPrevious { parts[0].removeFirst("previous.".count) }
            if isPrevious { Self.apply(parts, to: &previous) } else { Self.apply(parts, to: &current) }
        }
        return [current, previous].filter { $0 != CipherOptions() }
    }

    private static func apply(_ parts: [String], to options: inout CipherOptions) {
        switch parts[0] {
        case "kdf_iter": options.kdfIterations = Int(parts[1])
        case "cipher_page_size": options.pageSize = Int(parts[1])
        case "cipher_use_hmac": options.usesHMAC = parts[1] == "ON"
        default: return
        }
        options.allowsLegacyKDFIterations = (options.kdfIterations ?? .max) < CipherOptions.minimumKDFIterations
    }

    /// Records `options` (and `previous`, the settings the file had, while a change runs), or
    /// removes the record when there is nothing but SQLCipher's defaults to record.
    func write(_ options: CipherOptions, previous: CipherOptions? = nil) throws {
        let lines = Self.lines(options) + Self.lines(previous ?? CipherOptions()).map { "previous." + $0 }
        let url = URL(fileURLWithPath: path)
        guard !lines.isEmpty else { return try DatabaseTools.removeFileDurably(at: url) }
        try DatabaseTools.writeFileDurably(Data((lines.joined(separator: "\n") + "\n").utf8), to: url)
    }

    private static func lines(_ options: CipherOptions) -> [String] {
        var lines: [String] = []
        if let kdfIterations = options.kdfIterations { lines.append("kdf_iter=\(kdfIterations)") }
        if let pageSize = options.pageSize { lines.append("cipher_page_size=\(pageSize)") }
        if let usesHMAC = options.usesHMAC { lines.append("cipher_use_hmac=\(usesHMAC ? "ON" : "OFF")") }
        return lines
    }

    /// Removes the temporary file a kill left behind (every command does this first).
    /// A symbolic link or another user's file there is left alone (the next write refuses it).
    func removeStaleTemporary() {
        try? DatabaseTools.removeLeftoverTemporary(of: URL(fileURLWithPath: path))
    }
}
