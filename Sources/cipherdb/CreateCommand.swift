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
        if let key = try KeyFile.key(invocation) {
            try manager.create(.key(key))
        } else {
            try manager.create(.password(try Passwords(invocation: invocation).forNewDatabase()))
        }
        defer { manager.close() }
        let cipher = try manager.cipherInfo
        Console.sayEscaped(
            "Created encrypted database \(invocation.path) "
                + "(SQLCipher \(cipher.version), \(cipher.settings)).")
    }
}
