import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - rekey, encrypt, decrypt, settings

/// The commands that rewrite a database through the library's crash-safe export
/// (`rekey`, `encryptPlaintextDatabase`, `decrypt`, `backup`), with a progress line on a terminal.
enum MigrationCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            name: "rekey", arguments: ["DB"], options: CommandSpec.unlocking + [.newPasswordEnv, .newPasswordFile, .newKeyFile],
            summary: "change the password (stdin: the old password, then the new one)", run: rekey),
        CommandSpec(
            name: "encrypt", arguments: ["PLAIN"], options: CommandSpec.unlocking + [.to],
            summary: "encrypt a plaintext SQLite database, in place or --to a new file", run: encrypt),
        CommandSpec(
            name: "decrypt", arguments: ["DB"], options: CommandSpec.unlocking + [.to],
            summary: "write a plaintext copy --to a new file (the database is unchanged)", run: decrypt),
        CommandSpec(
            name: "backup", arguments: ["DB"], options: CommandSpec.unlocking + [.to, .newPasswordEnv, .newPasswordFile, .newKeyFile],
            summary:
                "write a verified encrypted copy --to a new file while the database stays in use (same key, or --new-…)",
            run: BackupCommand.run),
        CommandSpec(
            name: "settings", arguments: ["DB"], options: CommandSpec.unlocking + [.setKdfIter, .setPageSize, .setDefaults],
            summary: "re-encrypt with other cipher settings (--set-kdf-iter N, --set-page-size N, --set-defaults)", run: settings),
        CommandSpec(
            name: "upgrade", arguments: ["DB"], options: CommandSpec.unlocking,
            summary: "rewrite a database in an older SQLCipher format (1-3) in the linked SQLCipher's, keeping its password",
            run: upgrade),
    ]

    static func rekey(_ invocation: Invocation) throws {
        try Session.withOpenDatabase(invocation) { manager in
            if let key = try KeyFile.key(invocation, .newKeyFile) {
                try withProgress("Re-encrypting") { try manager.rekey(to: .key(key), progress: $0) }
            } else {
                let new = try Passwords(invocation: invocation).replacement()
                try withProgress("Re-encrypting") { try manager.rekey(to: .password(new), progress: $0) }
            }
            Console.sayEscaped("Changed the password of \(invocation.path).")
        }
    }

    static func encrypt(_ invocation: Invocation) throws {
        if let problem = DatabaseTools.inspectFile(at: URL(fileURLWithPath: invocation.path)).problemBeforeEncrypting { throw problem }
        let destination = invocation.value(.to)
        if let destination, FileManager.default.fileExists(atPath: destination) {
            throw DatabaseManagerError.fileAlreadyExists(path: destination)
        }
        let key = try KeyFile.key(invocation)
        let password = key == nil ? try Passwords(invocation: invocation).forNewDatabase() : SecretBytes(zeroed: 0)
        let configuration = DatabaseConfiguration(cipher: Session.cipherOptions(invocation))
        let (source, target) = (URL(fileURLWithPath: invocation.path), destination.map { URL(fileURLWithPath: $0) })
        try withProgress("Encrypting") { progress in
            if let key {
                try DatabaseTools.encryptPlaintextDatabase(
                    at: source, to: target, key: key, configuration: configuration, progress: progress)
            } else {
                try DatabaseTools.encryptPlaintextDatabase(
                    at: source, to: target, password: password, configuration: configuration, progress: progress)
            }
        }
        Console.sayEscaped("Encrypted \(invocation.path)" + (destination.map { " into \($0)." } ?? " in place."))
    }

    static func decrypt(_ invocation: Invocation) throws {
        guard let destination = invocation.value(.to) else {
            throw Failure.usage("decrypt needs --to PATH: the plaintext copy is always a new file.")
        }
        if FileManager.default.fileExists(atPath: destination) {
            throw DatabaseManagerError.fileAlreadyExists(path: destination)
        }
        try Session.withOpenDatabase(invocation) { manager in
            try withProgress("Decrypting") { try manager.decrypt(to: URL(fileURLWithPath: destination), progress: $0) }
        }
        Console.sayEscaped("Wrote a plaintext copy of \(invocation.path) to \(destination). Anyone who can read it can read every row.")
    }

    static func settings(_ invocation: Invocation) throws {
        guard invocation.has(.setKdfIter) || invocation.has(.setPageSize) || invocation.has(.setDefaults) else {
            throw Failure.usage("settings needs --set-kdf-iter N and/or --set-page-size N, or --set-defaults.")
        }
        if let problem = DatabaseTools.inspectFile(at: URL(fileURLWithPath: invocation.path)).problemBeforeUnlock { throw problem }
        let key = try KeyFile.key(invocation)
        let password = key == nil ? try Passwords(invocation: invocation).current() : nil
        // The new settings, as the options that differ from SQLCipher's defaults.
        var options = invocation.has(.setDefaults) ? CipherOptions() : Session.cipherOptions(invocation)
        options.kdfIterations = invocation.number(.setKdfIter) ?? options.kdfIterations
        options.pageSize = invocation.number(.setPageSize) ?? options.pageSize
        try Session.withOpenDatabase(invocation, password: password) { manager in
            // Recorded before the change with the settings the file has now, so a crash leaves
            // a record naming whichever set opens it; after the change, the new set only.
            let record = SettingsRecord(databasePath: invocation.path)
            let previous = Session.cipherOptions(invocation)
            // A link or another user's file planted at the record's names stops the change here.
            try record.write(options, previous: previous)
            do {
                try withProgress("Re-encrypting") { progress in
                    if let key {
                        try manager.rekey(to: .key(key), options: options, progress: progress)
                    } else {
                        try manager.rekey(to: .password(password ?? SecretBytes(zeroed: 0)), options: options, progress: progress)
                    }
                }
            } catch {
                try? record.write(previous)
                throw error
            }
            try? record.write(options)
            let flags = SettingsMismatch.flags(options).joined(separator: " ")
            Console.sayEscaped(
                "Re-encrypted \(invocation.path) with \(try manager.cipherInfo.settings). "
                    + (flags.isEmpty
                        ? "These are SQLCipher's defaults: open it without --kdf-iter, --page-size or --no-hmac."
                        : "Open it with `\(flags)` from now on."))
        }
    }

    static func upgrade(_ invocation: Invocation) throws {
        try Session.withOpenDatabase(invocation) { manager in
            var result: FormatUpgradeResult?
            try withProgress("Upgrading") { progress in result = try manager.upgradeFormat(progress: progress) }
            switch result {
            case .alreadyCurrent(let format)?:
                Console.sayEscaped(
                    "\(invocation.path) is already in the linked SQLCipher's format (\(format)): nothing was written.")
            case .upgraded(let old, let new)?:
                // The file now has the defaults: a record of other settings beside it is stale.
                try? SettingsRecord(databasePath: invocation.path).write(CipherOptions())
                Console.sayEscaped(
                    "Upgraded \(invocation.path) from the \(old) to the \(new). Open it without --kdf-iter, --page-size, "
                        + "--no-hmac, --legacy-kdf or --compatibility from now on; SQLCipher \(old.majorVersion) can no longer read it.")
            case nil:
                break
            }
        }
    }

    /// Runs `body` with a progress callback drawing on stderr (when it is a terminal).
    static func withProgress(_ label: String, _ body: (@escaping (Double) -> Void) throws -> Void) throws {
        let line = ProgressLine(label)
        defer { line.finish() }
        try body(line.update)
    }
}
