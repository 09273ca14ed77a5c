import SQLCipherManager
import TerminalIO

// MARK: - create

/// `cipherdb create DB`: a new, empty encrypted database.
enum CreateCommand {
    static func run(_ invocation: Invocation) throws {
        let manager = Session.manager(for: invocation)
        if manager.databaseExists {
            throw DatabaseManagerError.fileAlreadyExists(path: invocation.path)
        }
        try manager.create(password: try Passwords(invocation: invocation).forNewDatabase())
        defer { manager.close() }
        let settings = try manager.cipherSettings()
        Console.say("Created encrypted database \(invocation.path) "
            + "(SQLCipher \(manager.cipherVersion ?? "?"), \(CipherText.describe(settings))).")
    }
}

/// Human-readable cipher settings.
enum CipherText {
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
