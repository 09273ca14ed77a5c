import SQLCipherManager
import TerminalIO

// MARK: - info

extension NotesShell {
    /// SQLCipher version, cipher settings, schema version, file size.
    func info() throws {
        let cipher = try manager.cipherInfo
        let settings = cipher.settings
        let version = cipher.version
        let provider = cipher.provider.map { " (\($0))" } ?? ""
        Console.say("SQLCipher:       \(version)\(provider)")
        Console.say("KDF iterations:  \(settings.kdfIterations.map(String.init) ?? "unknown")")
        Console.say("Page size:       \(settings.pageSize.map { "\($0) bytes" } ?? "unknown")")
        Console.say("Page HMAC:       \(settings.usesHMAC.map { $0 ? "on" : "off" } ?? "unknown")")
        Console.say("Schema version:  \(try manager.schemaVersion) (this app: \(NotesSchema.migrator.targetVersion))")
        let fileSize = manager.databaseURL.flatMap { DatabaseTools.inspectFile(at: $0).size }
        Console.sayEscaped(
            "File:            \(manager.databaseURL?.path ?? "?"), \(fileSize.map { "\($0) bytes" } ?? "size unknown")")
        Console.say("Notes:           \(try notes.count())")
    }
}
