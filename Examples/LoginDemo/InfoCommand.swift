import SQLCipherManager
import TerminalIO

// MARK: - info

extension NotesShell {
    /// SQLCipher version, cipher settings, schema version, file size.
    func info() throws {
        let settings = try manager.cipherSettings()
        let version = manager.cipherVersion ?? "unknown"
        let provider = manager.cipherProvider.map { " (\($0))" } ?? ""
        Console.say("SQLCipher:       \(version)\(provider)")
        Console.say("Cipher settings: \(Self.describe(settings))")
        Console.say("Schema version:  \(try manager.schemaVersion) (this app: \(NotesSchema.migrator.targetVersion))")
        Console.say("File:            \(manager.databasePath ?? "?"), \(manager.databaseSize.map { "\($0) bytes" } ?? "size unknown")")
        Console.say("Notes:           \(try notes.count())")
    }

    static func describe(_ settings: CipherOptions) -> String {
        var parts: [String] = []
        if let kdf = settings.kdfIterations { parts.append("kdf_iter \(kdf)") }
        if let page = settings.pageSize { parts.append("page size \(page)") }
        if let hmac = settings.usesHMAC { parts.append("HMAC \(hmac ? "on" : "off")") }
        if let algorithm = settings.kdfAlgorithm { parts.append(algorithm.rawValue) }
        if let algorithm = settings.hmacAlgorithm { parts.append(algorithm.rawValue) }
        return parts.joined(separator: ", ")
    }
}
