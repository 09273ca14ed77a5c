import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - plaintext-header

/// `cipherdb plaintext-header DB on|off`: converts a database to or from SQLCipher 4's
/// plaintext-header form (``DatabaseManager/convertPlaintextHeader(_:progress:)``), whose salt
/// is kept in `DB.scm-salt`.
enum PlaintextHeaderCommand {
    static let spec = CommandSpec(
        name: "plaintext-header", arguments: ["DB", "on|off"], options: CommandSpec.unlocking,
        summary: "convert to (on) or from (off) the SQLCipher 4 plaintext-header form; the salt is kept in DB.scm-salt",
        run: run)

    static func run(_ invocation: Invocation) throws {
        guard invocation.arguments.count == 2, let enabled = ["on": true, "off": false][invocation.arguments[1]] else {
            throw Failure.usage("`cipherdb plaintext-header` takes DB and then on or off.")
        }
        try Session.withOpenDatabase(invocation) { manager in
            var changed = false
            try MigrationCommands.withProgress("Converting") { progress in
                changed = try manager.convertPlaintextHeader(enabled, progress: progress)
            }
            let form = enabled ? "the plaintext-header form (keep \(invocation.path).scm-salt with it)" : "the usual form"
            Console.sayEscaped(
                changed ? "Converted \(invocation.path) to \(form)." : "\(invocation.path) is already in \(form): nothing was written.")
        }
    }
}
